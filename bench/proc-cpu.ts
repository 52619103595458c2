// CPU time consumed by another process (Linux /proc), to report server CPU per request: on a
// 2-core machine the load generator can saturate before a server does, and then requests/s
// compare the client more than the servers, while CPU per request still compares the servers.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | null = null;

function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds of process `pid` so far, or null where /proc is unavailable. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) in parentheses; utime and stime
    // are fields 14 and 15 of the whole line, i.e. 12 and 13 after the ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / clockTicks() : null;
  } catch {
    return null;
  }
}
