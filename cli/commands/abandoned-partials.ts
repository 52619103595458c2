// What an interrupted export or backup leaves: FILE.partial-<pid> beside the FILE it was writing
// (killed with -9, or the machine stopped, so its own cleanup never ran). The next run to the
// same FILE removes those whose process is gone, so they do not pile up at the store's size each;
// one whose process still runs is another export or backup at work, and is left alone.
import fs from "node:fs";
import path from "node:path";
import { displayPath } from "../project/sources.js";

/** Whether process `pid` exists (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes `out`.partial-<pid> files and directories of processes that are gone; returns what it removed. */
export function removeAbandonedPartials(out: string): string[] {
  const dir = path.dirname(out);
  const prefix = `${path.basename(out)}.partial-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return []; // no directory yet: nothing was left there
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pidText = name.slice(prefix.length);
    if (!/^[1-9]\d{0,9}$/.test(pidText)) continue;
    const pid = Number(pidText);
    if (pid === process.pid || alive(pid)) continue;
    const partial = path.join(dir, name);
    fs.rmSync(partial, { recursive: true, force: true });
    removed.push(partial);
  }
  return removed;
}

/** Says which unfinished copies of an earlier, interrupted run were removed (stderr). */
export function noteRemoved(removed: readonly string[]): void {
  for (const partial of removed) process.stderr.write(`strand: removed ${displayPath(partial)}, left by an interrupted earlier run\n`);
}
