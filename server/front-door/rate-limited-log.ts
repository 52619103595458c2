// A log that writes at most one line a second: lines in between are counted, and the next line
// written says how many were not. For events a client can cause at will (failed accepts,
// connections closed for pipelining too far ahead), so that client cannot flood the log.

const EVERY_MS = 1000;

/** `log` at most once a second; `now` is the clock (tests pass their own). */
export function rateLimitedLog(log: (line: string) => void, now: () => number = Date.now): (line: string) => void {
  let loggedAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (line) => {
    const t = now();
    if (t - loggedAt < EVERY_MS) {
      unlogged++;
      return;
    }
    log(unlogged > 0 ? `${line} (and ${unlogged} more since the last line)` : line);
    loggedAt = t;
    unlogged = 0;
  };
}
