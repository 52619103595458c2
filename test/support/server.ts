// Spawns real `strand serve` processes (from the built dist/) on free ports for end-to-end tests.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
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
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

/** Starts `strand serve` and resolves once GET /health answers. */
export async function startStrand(options: StartOptions = {}): Promise<StrandServer> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does) before the end-to-end tests`);
  const dataDir = options.dataDir ?? tempDir("strand-e2e-data-");
  const removeOwnDataDir = (): void => {
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [CLI, "serve", options.project ?? SOCIAL_EXAMPLE, "--port", String(port), "--data", dataDir, ...(options.extraArgs ?? [])],
      { cwd: REPO_ROOT, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let log = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (log += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (log += d));
    const url = `http://127.0.0.1:${port}`;
    const server: StrandServer = {
      url,
      port,
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
    const ready = await waitForHealth(server, 30_000);
    if (ready) return server;
    child.kill("SIGKILL");
    await exited(child);
    if (attempt < 2 && log.includes("EADDRINUSE")) continue;
    removeOwnDataDir();
    throw new Error(`strand serve did not become healthy on ${url}:\n${log}`);
  }
}

async function waitForHealth(server: StrandServer, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return false;
    try {
      const res = await fetch(`${server.url}/health`);
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export interface JsonReply {
  status: number;
  body: unknown;
}

/** POST /<query> with a JSON body; the reply's status and parsed JSON. */
export async function call(server: StrandServer, query: string, params: unknown = {}, headers: Record<string, string> = {}): Promise<JsonReply> {
  const res = await fetch(`${server.url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}
