// Spawns real `strand serve` processes (from the built dist/) on free ports for end-to-end tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = join(REPO_ROOT, "dist/cli/strand.js");
export const SOCIAL_EXAMPLE = join(REPO_ROOT, "examples/social");

export interface StrandServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM (or the given signal), then wait for exit; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL, then wait for exit. */
  kill(): Promise<void>;
}

export interface StartOptions {
  project?: string;
  /** Reuse a data directory (restart tests; the caller removes it); otherwise a fresh temp dir, removed on stop/kill. */
  dataDir?: string;
  extraArgs?: string[];
  env?: Record<string, string>;
  /** A command that runs the server, e.g. `["prlimit", "--fsize=1048576:unlimited"]` (it must exec it, keeping the pid). */
  wrapper?: string[];
  /** What runs strand (default: this node and the clone's dist/cli/strand.js), e.g. an installed bin. */
  strand?: string[];
  /** The server's working directory (default: the repository root). */
  cwd?: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

/**
 * Starts `strand serve` on port 0 and resolves once it has said which port it bound and GET
 * /health answers there. Port 0 lets the kernel pick: probing a free port and passing it on
 * leaves a gap in which another test's server (say, one with an api key) can take the port and
 * answer this one's health check.
 */
export async function startStrand(options: StartOptions = {}): Promise<StrandServer> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does) before the end-to-end tests`);
  const dataDir = options.dataDir ?? tempDir("strand-e2e-data-");
  const removeOwnDataDir = (): void => {
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  const command = [
    ...(options.wrapper ?? []),
    ...(options.strand ?? [process.execPath, CLI]),
    "serve",
    options.project ?? SOCIAL_EXAMPLE,
    "--port",
    "0",
    "--data",
    dataDir,
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (log += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (log += d));
  const port = await listeningPort(child, () => log);
  const url = `http://127.0.0.1:${port ?? 0}`;
  const server: StrandServer = {
    url,
    port: port ?? 0,
    dataDir,
    child,
    output: () => log,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      child.kill(signal);
      const code = await exited(child);
      removeOwnDataDir();
      return code;
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
      removeOwnDataDir();
    },
  };
  if (port !== null && (await waitForHealth(server))) return server;
  child.kill("SIGKILL");
  await exited(child);
  removeOwnDataDir();
  throw new Error(`strand serve did not become healthy${port === null ? "" : ` on ${url}`}:\n${log}`);
}

/**
 * The port of serve's "strand listening on http://host:port" line, or null if the process ends
 * first. Waits on the process's output and exit (events), not on a clock: a start that a loaded
 * machine slows down is still a start; the test's own timeout bounds a hang.
 */
function listeningPort(child: ChildProcess, output: () => string): Promise<number | null> {
  return new Promise((done) => {
    const settle = (port: number | null): void => {
      child.stdout!.off("data", check);
      child.stderr!.off("data", check);
      child.off("exit", ended);
      done(port);
    };
    // Registered after the listeners that collect the output, so `output()` already holds the chunk.
    const check = (): void => {
      const match = /strand listening on http:\/\/[^\s]+:(\d+) /.exec(output());
      if (match !== null) settle(Number(match[1]));
    };
    const ended = (): void => settle(null);
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", ended);
    if (child.exitCode !== null || child.signalCode !== null) settle(null);
    else check();
  });
}

/** True once /health answers 200 (it listens already: the line came after listen), false if the process ends. */
async function waitForHealth(server: StrandServer): Promise<boolean> {
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return false;
    try {
      const res = await fetch(`${server.url}/health`);
      if (res.ok) return true;
    } catch {
      // refused: try again after a short pause
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface JsonReply {
  status: number;
  body: unknown;
}

/** POST /<query> with a JSON body; the reply's status and parsed JSON. */
export async function call(
  server: StrandServer,
  query: string,
  params: unknown = {},
  headers: Record<string, string> = {},
): Promise<JsonReply> {
  const res = await fetch(`${server.url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/**
 * Does `action`, then resolves with the first line the server writes after it (stdout or
 * stderr) that holds `expected`: waits on the server's output, not on a clock.
 */
export async function lineAfter(server: StrandServer, action: () => unknown, expected: string): Promise<string> {
  const from = server.output().length;
  await action();
  for (;;) {
    const line = server
      .output()
      .slice(from)
      .split("\n")
      .find((l) => l.includes(expected));
    if (line !== undefined) return line;
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        server.child.stdout!.off("data", wake);
        server.child.stderr!.off("data", wake);
        resolve();
      };
      server.child.stdout!.on("data", wake);
      server.child.stderr!.on("data", wake);
    });
  }
}
