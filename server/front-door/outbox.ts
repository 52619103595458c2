// Messages between the two threads leave in batches: one postMessage per turn of the event loop
// carrying every message of that turn (several requests under load, their responses, request
// records), since the cost of a postMessage is mostly per call, not per byte. A message that can
// wait (a request's record, for the engine's log and metrics) goes with the next batch, or alone
// after `LATER_MS`: sent at once, it woke the engine a second time for every request of a client
// that sends one at a time.
export interface Port<T> {
  postMessage(value: T[], transfer: ArrayBuffer[]): void;
}

/** The longest a message pushed with `later` waits for a batch to go with. */
export const LATER_MS = 20;

export class Outbox<T> {
  private messages: T[] = [];
  private transfer: ArrayBuffer[] = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly port: Port<T>) {}

  /** Queues `message` (with the buffers it hands over) for the end of this turn. */
  push(message: T, transfer?: readonly ArrayBuffer[]): void {
    this.messages.push(message);
    if (transfer !== undefined) for (const buffer of transfer) this.transfer.push(buffer);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Queues `message` for the next batch, sent within LATER_MS even when nothing else is. */
  later(message: T): void {
    this.messages.push(message);
    if (this.scheduled || this.timer !== null) return;
    this.timer = setTimeout(() => this.flush(), LATER_MS);
    this.timer.unref();
  }

  /** Sends what is queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.messages.length === 0) return;
    const messages = this.messages;
    const transfer = this.transfer;
    this.messages = [];
    this.transfer = [];
    this.port.postMessage(messages, transfer);
  }
}
