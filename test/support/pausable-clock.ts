// A node's view of a scenario's clock that can be paused, like a process stopped with SIGSTOP:
// while paused its timers do not run; on resume each timer that came due runs once (Node runs an
// interval once after a stall, not once per missed tick), after whatever the resumed process does
// first.
import type { Clock, Timer } from "../../server/cluster/clock.js";

export class PausableClock implements Clock {
  private paused = false;
  private readonly held = new Set<() => void>();

  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  every(ms: number, run: () => void): Timer {
    return this.clock.every(ms, () => this.run(run));
  }

  after(ms: number, run: () => void): Timer {
    return this.clock.after(ms, () => this.run(run));
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  pause(): void {
    this.paused = true;
  }

  /** Runs the timers that came due while paused, in the order they came due. */
  resume(): void {
    this.paused = false;
    const held = [...this.held];
    this.held.clear();
    for (const run of held) run();
  }

  private run(fn: () => void): void {
    if (this.paused) this.held.add(fn);
    else fn();
  }
}
