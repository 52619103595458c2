// Everything the bench creates outside its own heap (child processes, temp directories) is
// registered here and removed on every way out: normal return, thrown error, SIGINT/SIGTERM.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const children = new Set<ChildProcess>();
const dirs = new Set<string>();
let installed = false;

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

export function trackChild(child: ChildProcess): void {
  children.add(child);
  child.once("exit", () => children.delete(child));
}

/** A fresh temp directory, removed at cleanup. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/** SIGTERM (a graceful stop), then SIGKILL if the child is still there after `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (!running(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Stops every tracked child gracefully and removes every temp directory. */
export async function cleanup(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 5_000)));
  removeDirs();
}

function removeDirs(): void {
  for (const dir of dirs) {
    rmSync(dir, { recursive: true, force: true });
    dirs.delete(dir);
  }
}

/** Last-resort handlers: a signal cleans up and exits; a plain exit kills what is left. */
export function installCleanupHandlers(): void {
  if (installed) return;
  installed = true;
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stderr.write(`\nbench: ${signal}, stopping servers and removing temp data\n`);
    const code = signal === "SIGINT" ? 130 : 143;
    cleanup().then(
      () => process.exit(code),
      () => process.exit(code),
    );
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  process.once("exit", () => {
    for (const child of children) if (running(child)) child.kill("SIGKILL");
    removeDirs();
  });
}
