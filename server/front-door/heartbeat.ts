// The engine's heartbeat, a counter in shared memory the engine's thread raises every BEAT_MS
// from a timer, which runs only between the engine's tasks: while one request (or anything else)
// holds the thread, the counter stands still. The standby front door (standby.ts) reads it to
// know, within a few milliseconds and without waking the engine, that the engine is held. A
// message ping would wake the engine's thread on every beat and could not be read while it is held.

/** How often the engine beats. */
export const BEAT_MS = 10;

/** A new heartbeat cell, for the engine to beat and the standby to watch. */
export function heartbeatCell(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
}

/** Beats `cell` every BEAT_MS from this thread's event loop until stopped. */
export class EngineHeartbeat {
  private readonly beats: Int32Array;
  private readonly timer: NodeJS.Timeout;

  constructor(cell: SharedArrayBuffer) {
    this.beats = new Int32Array(cell);
    this.timer = setInterval(() => Atomics.add(this.beats, 0, 1), BEAT_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
