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
  /** A connection was accepted since the last start (noteAccepted). */
  private accepted = false;
  /** The scheduled start already waited a turn for one. */
  private deferred = false;

  /** Queues `start` for `remoteAddress`'s next turn (no address, a socket already gone, is a client of its own). */
  enqueue(remoteAddress: string | undefined, start: () => void): Turn {
    const turn: Turn = { client: clientKey(remoteAddress ?? ""), start };
    let queue = this.waiting.get(turn.client);
    if (queue === undefined) {
      queue = new Set();
      this.waiting.set(turn.client, queue);
    }
    queue.add(turn);
    this.scheduleStart();
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
   * A connection was accepted in this turn of the event loop (the engine's own door): the next
   * start waits one turn more, so what it sent is read first. Its request is read only in the next
   * turn's poll, and a request started now (an ingest, a scan) would hold it that long: a probe's
   * /health waited up to 1.2 s so.
   */
  noteAccepted(): void {
    this.accepted = true;
  }

  /** Starts the next waiting request at the end of this turn of the event loop (its check phase). */
  private scheduleStart(): void {
    if (this.startScheduled) return;
    this.startScheduled = true;
    setImmediate(this.startNext);
  }

  private readonly startNext = (): void => {
    // Once per start, so that a stream of new connections cannot hold every request back.
    if (this.accepted && !this.deferred) {
      this.accepted = false;
      this.deferred = true;
      setImmediate(this.startNext);
      return;
    }
    this.accepted = false;
    this.deferred = false;
    this.startScheduled = false;
    const next = this.takeNext();
    if (next === null) return;
    if (this.waiting.size > 0) this.scheduleStart();
    next.start();
  };

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
