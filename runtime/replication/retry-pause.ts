// The pause before a follower retries, cut short when it is stopped: a replica promoted to leader
// stops its followers first, and waiting out a retry pause kept the new leader refusing writes.

/** Resolves after `ms`, or at once when `signal` aborts (or has). */
export function retryPause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
