// `strand serve` and `strand verify` as child processes of a campaign, from the built dist/.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** dist/scripts/campaign/ when compiled, scripts/campaign/ from source: the root is the first with a package.json above. */
const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, HERE.includes(`${join("dist", "scripts")}`) ? "../../.." : "../..");
export const CLI = join(REPO_ROOT, "dist/cli/strand.js");
export const CAMPAIGN_PROJECT = join(REPO_ROOT, "scripts/campaign/project");

export interface ServeOptions {
  dataDir: string;
  /** A command that execs the server, e.g. `["prlimit", "--fsize=…"]`. */
  wrapper?: string[];
  /** Node's own flags for the server, e.g. `--max-old-space-size=256`. */
  nodeArgs?: string[];
  extraArgs?: string[];
}

export interface ServeChild {
  url: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 of GET /health. */
  startMs: number;
  output(): string;
  /** Still running (no exit seen). */
  alive(): boolean;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  kill(): Promise<void>;
}

const living = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of living) child.kill("SIGKILL");
});

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once("exit", (code) => done(code)));
}

/** Starts `strand serve` on the campaign project and resolves once /health answers 200. */
export async function serve(options: ServeOptions): Promise<ServeChild> {
  const t0 = performance.now();
  const command = [
    ...(options.wrapper ?? []),
    process.execPath,
    ...(options.nodeArgs ?? []),
    CLI,
    "serve",
    CAMPAIGN_PROJECT,
    "--port",
    "0",
    "--data",
    options.dataDir,
    "--log-level",
    "warn",
    ...(options.extraArgs ?? []),
  ];
  // In its own process group, so a Ctrl-C meant to stop the campaign early (run.ts) does not
  // also kill the server under test; the exit hook below stops whatever is left.
  const child = spawn(command[0]!, command.slice(1), { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], detached: true });
  living.add(child);
  child.once("exit", () => living.delete(child));
  let log = "";
  const append = (d: string): void => {
    log = (log + d).slice(-50_000);
  };
  child.stdout!.setEncoding("utf8").on("data", append);
  child.stderr!.setEncoding("utf8").on("data", append);
  const deadline = Date.now() + 120_000;
  let port: number | null = null;
  while (port === null) {
    const match = /strand listening on http:\/\/[^\s]+:(\d+) /.exec(log);
    if (match !== null) port = Number(match[1]);
    else if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`strand serve did not start (${child.exitCode ?? child.signalCode ?? "timeout"}):\n${log}`);
    } else await sleep(10);
  }
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not accepting yet
    }
    if (Date.now() > deadline) throw new Error(`strand serve on ${url} never answered /health:\n${log}`);
    await sleep(10);
  }
  const startMs = performance.now() - t0;
  return {
    url,
    port,
    child,
    startMs,
    output: () => log,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      child.kill(signal);
      return exited(child);
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}

/** `strand verify <dir>`: its exit status and output. */
export function verifyDir(dataDir: string): { ok: boolean; output: string } {
  const r = spawnSync(process.execPath, [CLI, "verify", dataDir], { cwd: REPO_ROOT, encoding: "utf8", timeout: 300_000 });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface Reply {
  status: number;
  body: unknown;
}

/** POST /<query> with a JSON body. Throws when no answer arrives (the server died). */
export async function post(url: string, query: string, params: unknown): Promise<Reply> {
  const res = await fetch(`${url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? null : (JSON.parse(text) as unknown) };
}
