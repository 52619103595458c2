// A clock for scripted scenarios (test/failover-scenarios.test.ts): time stands still until
// `advance` moves it, and then due timers fire in order of their time (ties: in the order they
// were set), each at its own time, with the work each one starts settled before the next fires.
import type { Clock, Timer } from "./clock.js";

interface Scheduled {
  due: number;
  readonly order: number;
  /** 0: a one-shot timer. */
  readonly everyMs: number;
  readonly run: () => void;
  cancelled: boolean;
}

/** Lets the work a fired timer started run to its end (default: every queued promise job). */
export type Settle = () => Promise<void>;

const settleJobs: Settle = () => new Promise((resolve) => setImmediate(resolve));

export class ManualClock implements Clock {
  private time: number;
  private nextOrder = 0;
  private timers: Scheduled[] = [];

  constructor(
    start = 0,
    private readonly settle: Settle = settleJobs,
  ) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  every(ms: number, run: () => void): Timer {
    if (!(ms > 0)) throw new Error(`a repeating timer needs a positive interval, got ${ms}`);
    return this.schedule(ms, ms, run);
  }

  after(ms: number, run: () => void): Timer {
    return this.schedule(Math.max(0, ms), 0, run);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  /** Timers still set (for a scenario's checks: a stopped controller leaves none). */
  get pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new Error(`time only moves forward, got ${ms}`);
    const until = this.time + ms;
    await this.settle();
    for (;;) {
      const next = this.nextDue(until);
      if (next === undefined) break;
      this.time = next.due;
      if (next.everyMs > 0) next.due += next.everyMs;
      else next.cancelled = true;
      next.run();
      await this.settle();
      this.timers = this.timers.filter((t) => !t.cancelled);
    }
    this.time = until;
  }

  private schedule(ms: number, everyMs: number, run: () => void): Timer {
    const timer: Scheduled = { due: this.time + ms, order: this.nextOrder++, everyMs, run, cancelled: false };
    this.timers.push(timer);
    return {
      cancel: () => {
        timer.cancelled = true;
      },
    };
  }

  private nextDue(until: number): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (const t of this.timers) {
      if (t.cancelled || t.due > until) continue;
      if (best === undefined || t.due < best.due || (t.due === best.due && t.order < best.order)) best = t;
    }
    return best;
  }
}
