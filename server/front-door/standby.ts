// The standby front door's rule (worker.ts runs it on the front-door thread): the engine serves
// HTTP on its own thread (start.ts), and while it is held (one long request, a long collection)
// the standby accepts on the same listening socket, through a duplicate of its descriptor
// (native/strand_native.cc: Node can listen on a descriptor but not duplicate one), answering
// /health itself and handing the rest to the engine, as the front door did for every request.
// The engine counts as held once its heartbeat (heartbeat.ts) has stood still for HELD_AFTER_MS;
// once it has beaten again for FREE_AFTER_MS without standing still that long, the standby closes
// its descriptor (the engine's stays open and listening) and the connections it took end after
// their next answer, so their clients come back to the engine. Giving back at the first beat left
// the gaps between the steps of an MCP explosion (5 requests of ~70 ms, a few ms apart) to the
// engine: a probe it accepted in a gap waited for the whole next step (/health p99 71 ms). Holding only while the engine is held keeps a request that the engine could
// answer from paying the hop between threads (two wake-ups, ~100 µs of CPU on this machine).
import { BEAT_MS } from "./heartbeat.js";

/** How long the heartbeat stands still before the standby takes connections. */
export const HELD_AFTER_MS = 2.5 * BEAT_MS;
/** How long the engine beats without standing still before the standby gives the socket back. */
export const FREE_AFTER_MS = 5 * BEAT_MS;
/** How often the standby looks at the heartbeat. */
export const CHECK_EVERY_MS = BEAT_MS / 2;

export interface StandbyActions {
  /** Start accepting on the engine's socket. */
  take(): void;
  /** Stop accepting (the engine is back, or the server closes). */
  give(): void;
}

export class StandbyWatch {
  private readonly beats: Int32Array;
  private lastBeat: number;
  private lastChange: number;
  private holding = false;
  /** While holding: since when the engine has beaten without standing still HELD_AFTER_MS (null: held now). */
  private freeSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    cell: SharedArrayBuffer,
    private readonly actions: StandbyActions,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.beats = new Int32Array(cell);
    this.lastBeat = Atomics.load(this.beats, 0);
    this.lastChange = now();
  }

  /** Whether the standby accepts now. */
  get accepting(): boolean {
    return this.holding;
  }

  /** Looks at the heartbeat every CHECK_EVERY_MS. */
  start(): void {
    this.timer ??= setInterval(() => this.check(), CHECK_EVERY_MS);
  }

  /** Takes or gives the socket as the heartbeat says (the timer's step; tests call it with their clock). */
  check(): void {
    const beat = Atomics.load(this.beats, 0);
    const now = this.now();
    if (beat !== this.lastBeat) {
      this.lastBeat = beat;
      this.lastChange = now;
      if (!this.holding) return;
      this.freeSince ??= now;
      if (now - this.freeSince >= FREE_AFTER_MS) {
        this.holding = false;
        this.freeSince = null;
        this.actions.give();
      }
    } else if (now - this.lastChange >= HELD_AFTER_MS) {
      this.freeSince = null;
      if (!this.holding) {
        this.holding = true;
        this.actions.take();
      }
    }
  }

  /** Stops watching for good, giving the socket back if it holds it. */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.freeSince = null;
    if (this.holding) {
      this.holding = false;
      this.actions.give();
    }
  }
}
