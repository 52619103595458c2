// The shell's history between runs: one entry a line, oldest first, the last HISTORY_SIZE kept, in
// $STRAND_HISTORY (empty: none kept) or ~/.strand_history. Readable by its owner only: queries
// carry data. A file that cannot be read or written costs the history, never the shell.
import { readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const HISTORY_SIZE = 1000;

/** Where the history is kept, or null when $STRAND_HISTORY is set empty. */
export function historyFile(env: NodeJS.ProcessEnv): string | null {
  const given = env.STRAND_HISTORY;
  if (given !== undefined) return given === "" ? null : given;
  return join(homedir(), ".strand_history");
}

/** The kept lines, newest first (as readline takes them). */
export function loadHistory(file: string | null): string[] {
  if (file === null) return [];
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .slice(-HISTORY_SIZE)
      .reverse();
  } catch {
    return [];
  }
}

/** Keeps `newestFirst` (readline's order), at most HISTORY_SIZE lines. */
export function saveHistory(file: string | null, newestFirst: readonly string[]): void {
  if (file === null) return;
  const lines = newestFirst.slice(0, HISTORY_SIZE).reverse();
  try {
    writeFileSync(file, lines.length === 0 ? "" : `${lines.join("\n")}\n`, { mode: 0o600 });
  } catch {
    // a read-only home or a full disk: the shell works on without its history
  }
}
