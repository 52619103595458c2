// The HTTP servers under load, each in its own child process: Strand (`strand serve` on a
// pre-filled data directory), the floor (bench/floor-server.ts run as a script) and the Hono +
// better-sqlite3 peer (bench/sqlite-server.ts).
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stopChild, trackChild } from "./cleanup.js";

/** dist/bench/ when compiled; the repository root is two levels up. */
const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, "../..");
export const CLI = join(REPO_ROOT, "dist/cli/strand.js");
export const BENCH_PROJECT = join(REPO_ROOT, "bench/project");
const FLOOR_SCRIPT = join(HERE, "floor-server.js");
const SQLITE_SCRIPT = join(HERE, "sqlite-server.js");
const START_TIMEOUT_MS = 120_000;

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** The last output of the process, for error reports. */
  output(): string;
  stop(): Promise<void>;
}

export function captureOutput(child: ChildProcess, onText?: (all: string) => void): () => string {
  let log = "";
  const append = (text: string): void => {
    log = (log + text).slice(-20_000);
    onText?.(log);
  };
  child.stdout?.setEncoding("utf8").on("data", append);
  child.stderr?.setEncoding("utf8").on("data", append);
  return () => log;
}

export function waitFor<T>(
  child: ChildProcess,
  what: string,
  output: () => string,
  attach: (done: (value: T) => void) => void,
): Promise<T> {
  return new Promise<T>((resolveReady, reject) => {
    let settled = false;
    const finish = (error: Error | null, value?: T): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolveReady(value as T);
    };
    const onExit = (code: number | null, signal: string | null): void =>
      finish(new Error(`${what} exited (${code ?? signal}) before it was ready:\n${output()}`));
    const timer = setTimeout(() => finish(new Error(`${what} not ready after ${START_TIMEOUT_MS} ms:\n${output()}`)), START_TIMEOUT_MS);
    child.once("exit", onExit);
    attach((value) => finish(null, value));
  });
}

/**
 * `strand serve <project> --port 0 --data <dataDir> --log-level warn`; resolves once it prints its listening line.
 * With a profile directory, node writes a .cpuprofile there when the server exits after SIGTERM.
 */
export async function startStrand(
  dataDir: string,
  profileDir: string | null,
  project = BENCH_PROJECT,
  cli = CLI,
  /** False for an older build without --log-level (it logged no requests). */
  logLevel = true,
  extraArgs: readonly string[] = [],
  /** Added to this process's environment. */
  env: Readonly<Record<string, string>> = {},
): Promise<ChildServer> {
  const profile = profileDir === null ? [] : ["--cpu-prof", "--cpu-prof-dir", profileDir];
  // Request logs off: the floor server logs nothing, so the ratios compare the engines (a request
  // line costs one buffered write to stderr; the operator chooses with --log-level).
  const quiet = logLevel ? ["--log-level", "warn"] : [];
  const child = spawn(process.execPath, [...profile, cli, "serve", project, "--port", "0", "--data", dataDir, ...quiet, ...extraArgs], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  trackChild(child);
  let onLog: ((all: string) => void) | undefined;
  const output = captureOutput(child, (all) => onLog?.(all));
  const url = await waitFor<string>(child, "strand serve", output, (done) => {
    onLog = (all) => {
      const match = /strand listening on (http:\/\/\S+)/.exec(all);
      if (match) done(match[1]!);
    };
  });
  return { url, child, output, stop: () => stopChild(child) };
}

interface FloorReady {
  ready: true;
  url: string;
  records: number;
}

function isFloorReady(message: unknown): message is FloorReady {
  return typeof message === "object" && message !== null && (message as { ready?: unknown }).ready === true;
}

/** bench/floor-server.js as a forked child, pre-filling `records` records into `dataDir`. */
export async function startFloor(dataDir: string, records: number): Promise<ChildServer> {
  const child = fork(FLOOR_SCRIPT, ["--path", dataDir, "--port", "0", "--records", String(records)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  trackChild(child);
  const output = captureOutput(child);
  const ready = await waitFor<FloorReady>(child, "floor server", output, (done) => {
    child.on("message", (message: unknown) => {
      if (isFloorReady(message)) done(message);
    });
  });
  return { url: ready.url, child, output, stop: () => stopChild(child) };
}

/** bench/sqlite-server.js (Hono + better-sqlite3) as a forked child serving the database at `dbPath`. */
export async function startSqlitePeer(dbPath: string): Promise<ChildServer> {
  const child = fork(SQLITE_SCRIPT, ["--path", dbPath, "--port", "0"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe", "ipc"] });
  trackChild(child);
  const output = captureOutput(child);
  const ready = await waitFor<{ url: string }>(child, "sqlite peer server", output, (done) => {
    child.on("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && (message as { ready?: unknown }).ready === true) {
        done(message as { url: string });
      }
    });
  });
  return { url: ready.url, child, output, stop: () => stopChild(child) };
}

/** Builds the peer's database of the graph whose targets are in `targetsFile` (Int32 LE), in a child that exits. */
export function buildSqlitePeer(dbPath: string, targetsFile: string, fanout: number): void {
  execFileSync(process.execPath, [SQLITE_SCRIPT, "--build", "--path", dbPath, "--targets", targetsFile, "--fanout", String(fanout)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
