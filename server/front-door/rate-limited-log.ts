// A log that writes at most one line a second: lines in between are counted, and the next line
// written says how many were not. For events a client can cause at will (failed accepts,
// connections closed for pipelining too far ahead, refused connections), so that client cannot
// flood the log. When the second ends with lines held back, the last of them is written then
// (with the count of the others): a burst that stops is still reported, not only the next one.

const EVERY_MS = 1000;

/** Runs `fn` after `ms` without keeping the process alive (tests pass their own). */
type Later = (fn: () => void, ms: number) => void;
const unrefTimeout: Later = (fn, ms) => void setTimeout(fn, ms).unref();

/** `log` at most once a second; `now` is the clock and `later` the timer (tests pass their own). */
export function rateLimitedLog(
  log: (line: string) => void,
  now: () => number = Date.now,
  later: Later = unrefTimeout,
): (line: string) => void {
  let loggedAt = Number.NEGATIVE_INFINITY;
  /** Lines held back since the last one written, and the last of them. */
  let unlogged = 0;
  let lastUnlogged = "";
  let flushScheduled = false;
  const write = (line: string, others: number, t: number): void => {
    log(others > 0 ? `${line} (and ${others} more since the last line)` : line);
    loggedAt = t;
    unlogged = 0;
  };
  const flush = (): void => {
    flushScheduled = false;
    if (unlogged > 0) write(lastUnlogged, unlogged - 1, now());
  };
  return (line) => {
    const t = now();
    if (t - loggedAt >= EVERY_MS) {
      write(line, unlogged, t);
      return;
    }
    unlogged++;
    lastUnlogged = line;
    if (!flushScheduled) {
      flushScheduled = true;
      later(flush, loggedAt + EVERY_MS - t);
    }
  };
}
