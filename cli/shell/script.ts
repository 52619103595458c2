// The shell on a stdin that is no terminal (a pipe, a file: scripts and CI): the same entries as on
// a terminal (input.ts), each answer printed as it comes, no prompt, no banner, no history. Exit 1
// when any entry failed, after running them all.
import { createInterface } from "node:readline";
import { EntryReader } from "./input.js";
import type { Session } from "./session.js";

export async function runScript(input: NodeJS.ReadableStream, session: Session): Promise<number> {
  const lines = createInterface({ input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  const reader = new EntryReader();
  let failed = false;
  try {
    for await (const line of lines) {
      const entry = reader.push(line);
      if (entry !== null && !(await session.run(entry))) failed = true;
      if (session.quit) return failed ? 1 : 0;
    }
  } finally {
    lines.close();
  }
  const last = reader.flush();
  if (last !== null && !(await session.run(last))) failed = true;
  return failed ? 1 : 0;
}
