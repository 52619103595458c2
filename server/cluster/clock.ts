// Time as the failover controller sees it: the system's by default, a manual one
// (manual-clock.ts) in scripted scenarios, so that failover decisions can be replayed step by
// step without waiting.

/** A scheduled call; cancelling it more than once, or after a one-shot fired, does nothing. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since some fixed moment (only differences count). */
  now(): number;
  /** Calls `run` every `ms` from now on, until cancelled. */
  every(ms: number, run: () => void): Timer;
  /** Calls `run` once, `ms` from now, unless cancelled before. */
  after(ms: number, run: () => void): Timer;
  /** Resolves `ms` from now. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, run) {
    const handle = setInterval(run, ms);
    return { cancel: () => clearInterval(handle) };
  },
  after(ms, run) {
    const handle = setTimeout(run, ms);
    return { cancel: () => clearTimeout(handle) };
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
