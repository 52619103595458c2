// Which request the engine starts next. Requests not started yet wait per client (its TCP peer
// address, http/client-key.ts), in arrival order, and each starts in a turn of the event loop of
// its own, so the messages that came meanwhile are read first: a request whose client went away
// (its abort) is dropped unstarted. Started as they arrived, 100 queued requests for a 27 MB
// answer each were all computed, holding the engine 70 s after their clients had gone. Clients
// take turns, one request each (round robin, in the order they first had one waiting): in arrival
// order, a client with 16 connections of 100 ms scans made another client's point read wait about
// 1.6 s, behind all of them; now it waits for at most one per other client. One scheduler serves
// every door of the engine (start.ts: the engine's own and the standby's), so a client's turn does
// not depend on which thread accepted its connection.
import { clientKey } from "../http/client-key.js";

/** A request waiting for its turn. */
export interface Turn {
  readonly client: string;
  readonly start: () => void;
}

export class EngineTurns {
  private readonly waiting = new Map<string, Set<Turn>>();
  private startScheduled = false;
  /** A request started soon in this turn of the event loop (scheduleStart). */
  private startedSoon = false;

  /** Queues `start` for `remoteAddress`'s next turn (no address, a socket already gone, is a client of its own). */
  enqueue(remoteAddress: string | undefined, start: () => void): Turn {
    const turn: Turn = { client: clientKey(remoteAddress ?? ""), start };
    let queue = this.waiting.get(turn.client);
    if (queue === undefined) {
      queue = new Set();
      this.waiting.set(turn.client, queue);
    }
    queue.add(turn);
    this.scheduleStart(true);
    return turn;
  }

  /** Drops a turn not started yet; false when it has started. */
  cancel(turn: Turn): boolean {
    const queue = this.waiting.get(turn.client);
    if (queue === undefined || !queue.delete(turn)) return false;
    if (queue.size === 0) this.waiting.delete(turn.client);
    return true;
  }

  /**
   * Starts the next waiting request: `soon`, right after the batch of messages being read (a
   * request that finds the engine idle, so that a client sending one at a time costs no extra turn
   * of the event loop), else in the next turn. Only one request a turn starts soon: the engine's
   * own door reads each connection in a callback of its own, and with every request that found
   * the queue empty started at once, 16 connections of 60 ms scans read in one poll all ran before
   * another client's request read in the same poll (it waited ~16 scans instead of one); the
   * rest wait for the turn's end, when all that poll read is queued and clients take turns.
   */
  private scheduleStart(soon: boolean): void {
    if (this.startScheduled) return;
    this.startScheduled = true;
    const start = (): void => {
      this.startScheduled = false;
      const next = this.takeNext();
      if (next === null) return;
      if (this.waiting.size > 0) this.scheduleStart(false);
      next.start();
    };
    if (soon && !this.startedSoon) {
      this.startedSoon = true;
      queueMicrotask(start);
      setImmediate(() => {
        this.startedSoon = false;
      });
    } else setImmediate(start);
  }

  /** The first waiting turn of the client whose turn it is; that client goes to the back. */
  private takeNext(): Turn | null {
    const first = this.waiting.entries().next();
    if (first.done) return null;
    const [client, queue] = first.value;
    const next = queue.values().next().value!;
    queue.delete(next);
    this.waiting.delete(client);
    if (queue.size > 0) this.waiting.set(client, queue);
    return next;
  }
}
