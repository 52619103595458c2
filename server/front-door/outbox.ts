// Messages between the two threads leave in batches: one postMessage per turn of the event loop
// carrying every message of that turn (several requests under load, their responses, request
// records), since the cost of a postMessage is mostly per call, not per byte.
export interface Port<T> {
  postMessage(value: T[], transfer: ArrayBuffer[]): void;
}

export class Outbox<T> {
  private messages: T[] = [];
  private transfer: ArrayBuffer[] = [];
  private scheduled = false;

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

  /** Sends what is queued now. */
  flush(): void {
    this.scheduled = false;
    if (this.messages.length === 0) return;
    const messages = this.messages;
    const transfer = this.transfer;
    this.messages = [];
    this.transfer = [];
    this.port.postMessage(messages, transfer);
  }
}
