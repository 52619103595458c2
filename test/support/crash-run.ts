// Runs a crash child (test/support/*-crash-child.mjs) against the transpiled store: it performs
// the operations of a plan file and prints one line per settled operation; once `killAt` lines
// of successes have arrived it is killed with SIGKILL. Resolves to every line it printed, including
// those that arrived after the kill decision (acknowledged too).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { SchemaDescriptor } from "../../core/schema.js";
import { root } from "./transpile-tree.js";

export interface CrashRun {
  child: string;
  storeModule: string;
  dataDir: string;
  schema: SchemaDescriptor;
  /** The operations, written to a file the child reads. */
  plan: unknown[];
  /** Killed once this many operations have succeeded. */
  killAt: number;
}

/** Operations a child runs at once (each lane awaits its write before taking the next operation). */
export const LANES = 8;

export async function runUntilKilled(run: CrashRun): Promise<string[]> {
  const planFile = path.join(run.dataDir, "..", `${path.basename(run.dataDir)}.plan.json`);
  fs.writeFileSync(planFile, JSON.stringify(run.plan));
  try {
    const child = spawn(
      process.execPath,
      [path.join(root, "test/support", run.child), pathToFileURL(run.storeModule).href, run.dataDir, JSON.stringify(run.schema), planFile],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const lines: string[] = [];
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // "close": the process exited and its output has been read to the end.
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("close", (_code, signal) => resolve(signal)));
    let succeeded = 0;
    await new Promise<void>((resolve, reject) => {
      let buffered = "";
      child.stdout.on("data", (d: Buffer) => {
        buffered += d.toString();
        const parts = buffered.split("\n");
        buffered = parts.pop()!;
        for (const line of parts) {
          if (line === "ready") continue;
          lines.push(line);
          if (!line.includes(' {"error":')) succeeded++;
        }
        if (succeeded >= run.killAt && child.exitCode === null && !child.killed) {
          child.kill("SIGKILL");
          resolve();
        }
      });
      child.on("exit", (code, signal) => {
        if (signal !== "SIGKILL") reject(new Error(`child exited early (${code ?? signal}): ${stderr}`));
      });
    });
    const signal = await exited;
    if (signal !== "SIGKILL") throw new Error(`child ended by ${String(signal)}, not SIGKILL`);
    return lines;
  } finally {
    fs.rmSync(planFile, { force: true });
  }
}

/** What a child printed: each acknowledged operation's result by op index, and where the plan stopped. */
export interface Settled<T> {
  acked: Map<number, T>;
  /** Operations from this index on never started (each lane had at most one in flight). */
  horizon: number;
}

/** Lines "<op index> <JSON result>"; a rejected operation's result is {"error": code}. */
export function parseSettled<T>(lines: readonly string[]): Settled<T> {
  const acked = new Map<number, T>();
  let last = -1;
  for (const line of lines) {
    const space = line.indexOf(" ");
    const op = Number(line.slice(0, space));
    const result = JSON.parse(line.slice(space + 1)) as T | { error: string };
    last = Math.max(last, op);
    if (!(typeof result === "object" && result !== null && "error" in result)) acked.set(op, result);
  }
  return { acked, horizon: last + 1 + LANES };
}
