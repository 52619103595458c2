// The engine's side of the front door: every forwarded request becomes a Fetch Request for the
// Hono app (on this, the main thread, beside the store), and its Response goes back to the front
// door: the status, the headers and the first chunks in one message when the body is ready at
// once (most answers), then further chunks as the body produces them (backups, the replication
// log), each a copy whose buffer is transferred, paced by the front door's "written" answers so a
// slow client does not make the engine buffer a whole backup. Pings are answered here too: between
// two requests, so a ping that waits says the engine is busy.
import type { IncomingHttpHeaders } from "node:http";
import type { IncomingRequest } from "../http/request-header.js";
import type { RequestRecord } from "../observe/request-observer.js";
import { clientKey } from "../http/client-key.js";
import { answerParts } from "./answer-response.js";
import { lazyRequest } from "./lazy-request.js";
import type { ToEngine, ToFrontDoor } from "./messages.js";

/** How many streamed bytes may wait to be written to the client before the engine stops reading the body. */
const STREAM_WINDOW_BYTES = 1024 * 1024;
/** Bytes gathered into the first message before it is sent anyway. */
const FIRST_MESSAGE_BYTES = 64 * 1024;

export interface EngineApp {
  fetch(request: Request, env: { forwarded: IncomingRequest }): Response | Promise<Response>;
}

export interface EngineSideOptions {
  app: EngineApp;
  post: (message: ToFrontDoor, transfer?: ArrayBuffer[]) => void;
  record: (record: RequestRecord) => void;
  /** The node's Strand-Commit for /health, or null without a commit log. */
  commit: () => number | null;
  /** Something failed while answering a request (its stack, and the request's id); the request gets 500 INTERNAL. */
  internalError: (stack: string, reqId: string | undefined) => void;
}

interface Stream {
  headSent: boolean;
  unacked: number;
  aborted: boolean;
  wake: (() => void) | null;
  cancel: (() => void) | null;
}

const TURN = Symbol("turn");
const encoder = new TextEncoder();
const INTERNAL_BODY = new TextEncoder().encode(JSON.stringify({ error: "internal error", code: "INTERNAL" }));

type ReadResult = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;

/** Resolves TURN after the current turn of the event loop, unless `p` settles first. */
function thisTurn<T>(p: Promise<T>): Promise<T | typeof TURN> {
  return Promise.race([p, new Promise<typeof TURN>((resolve) => setImmediate(resolve, TURN))]);
}

/** Node's header object (lower-case names; repeated headers joined) from the raw pairs. */
function nodeHeaders(raw: readonly string[]): IncomingHttpHeaders {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const seen = out[name];
    out[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return out;
}

/** A copy of `chunk` in a buffer of its own, so transferring it detaches nothing the producer holds. */
function owned(chunk: Uint8Array): Uint8Array {
  return new Uint8Array(chunk);
}

type RequestMessage = Extract<ToEngine, { t: "request" }>;

export class EngineSide {
  private readonly streams = new Map<number, Stream>();
  /**
   * Requests not started yet: per client (its TCP peer address, http/client-key.ts), in arrival
   * order. Each starts in a turn of its own, so the messages that came meanwhile are read first: a
   * request whose client went away (its abort) is dropped unstarted. Started as they arrived, 100 queued requests for
   * a 27 MB answer each were all computed, holding the engine 70 s after their clients had gone.
   * Clients take turns, one request each (round robin, in the order they first had one waiting):
   * in arrival order, a client with 16 connections of 100 ms scans made another client's point
   * read wait about 1.6 s, behind all of them; now it waits for at most one per other client.
   */
  private readonly waiting = new Map<string, Map<number, RequestMessage>>();
  /** The client (key of `waiting`) of each request not started yet, by request id. */
  private readonly clientOf = new Map<number, string>();
  private startScheduled = false;

  constructor(private readonly options: EngineSideOptions) {}

  /**
   * Starts the next waiting request: `soon`, right after the batch of messages being read (a
   * request that finds the engine idle, so that a client sending one at a time costs no extra turn
   * of the event loop), else in the next turn.
   */
  private scheduleStart(soon: boolean): void {
    if (this.startScheduled) return;
    this.startScheduled = true;
    const start = (): void => {
      this.startScheduled = false;
      const next = this.takeNext();
      if (next === null) return;
      if (this.clientOf.size > 0) this.scheduleStart(false);
      void this.answer(next);
    };
    if (soon) queueMicrotask(start);
    else setImmediate(start);
  }

  /** The first waiting request of the client whose turn it is; that client goes to the back. */
  private takeNext(): RequestMessage | null {
    const first = this.waiting.entries().next();
    if (first.done) return null;
    const [client, queue] = first.value;
    const next = queue.values().next().value!;
    queue.delete(next.id);
    this.clientOf.delete(next.id);
    this.waiting.delete(client);
    if (queue.size > 0) this.waiting.set(client, queue);
    return next;
  }

  private enqueue(message: RequestMessage): void {
    // No address (the socket already gone) is a client of its own, the empty one.
    const client = clientKey(message.remoteAddress ?? "");
    let queue = this.waiting.get(client);
    if (queue === undefined) {
      queue = new Map();
      this.waiting.set(client, queue);
    }
    queue.set(message.id, message);
    this.clientOf.set(message.id, client);
  }

  /** Drops a request not started yet; false when it has started (or is unknown). */
  private dropWaiting(id: number): boolean {
    const client = this.clientOf.get(id);
    if (client === undefined) return false;
    this.clientOf.delete(id);
    const queue = this.waiting.get(client)!;
    queue.delete(id);
    if (queue.size === 0) this.waiting.delete(client);
    return true;
  }

  onMessage(message: ToEngine): void {
    switch (message.t) {
      case "request":
        this.enqueue(message);
        this.scheduleStart(true);
        return;
      case "ping":
        this.options.post({ t: "pong", seq: message.seq, commit: this.options.commit() });
        return;
      case "record":
        this.options.record(message.record);
        return;
      case "abort": {
        if (this.dropWaiting(message.id)) return;
        const stream = this.streams.get(message.id);
        if (stream === undefined) return;
        stream.aborted = true;
        stream.cancel?.();
        stream.wake?.();
        return;
      }
      case "written": {
        const stream = this.streams.get(message.id);
        if (stream === undefined) return;
        stream.unacked -= message.bytes;
        if (stream.unacked <= STREAM_WINDOW_BYTES) stream.wake?.();
        return;
      }
      default:
        return;
    }
  }

  private async answer(message: Extract<ToEngine, { t: "request" }>): Promise<void> {
    const { id, method } = message;
    const stream: Stream = { headSent: false, unacked: 0, aborted: false, wake: null, cancel: null };
    this.streams.set(id, stream);
    try {
      const request = lazyRequest(message.url, method, message.rawHeaders, message.body);
      const forwarded: IncomingRequest = {
        headers: nodeHeaders(message.rawHeaders),
        remoteAddress: message.remoteAddress,
        body: message.body ?? new Uint8Array(0),
        refusal: message.refusal,
      };
      const response = await this.options.app.fetch(request, { forwarded });
      await this.send(id, response, stream);
    } catch (error) {
      this.options.internalError((error as Error)?.stack ?? String(error), message.reqId);
      if (stream.headSent) this.options.post({ t: "fail", id });
      else
        this.options.post({
          t: "head",
          id,
          status: 500,
          headers: { "content-type": "application/json" },
          body: [INTERNAL_BODY.slice()],
          end: true,
        });
    } finally {
      this.streams.delete(id);
    }
  }

  private async send(id: number, response: Response, stream: Stream): Promise<void> {
    const parts = answerParts(response);
    if (parts !== null) {
      // Most answers: the whole body at hand, sent with the head.
      const body = parts.body === null ? [] : [typeof parts.body === "string" ? encoder.encode(parts.body) : owned(parts.body)];
      stream.headSent = true;
      this.options.post(
        { t: "head", id, status: parts.status, headers: parts.headers, body, end: true },
        body.map((c) => c.buffer as ArrayBuffer),
      );
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const { post } = this.options;
    const body = response.body;
    if (body === null) {
      stream.headSent = true;
      post({ t: "head", id, status: response.status, headers, body: [], end: true });
      return;
    }
    const reader = body.getReader();
    stream.cancel = () => void reader.cancel().catch(() => undefined);
    // The first message: the head and every chunk ready now (usually the whole body).
    const first: Uint8Array[] = [];
    let size = 0;
    let next: Promise<ReadResult> = reader.read();
    let result: ReadResult | typeof TURN = await next;
    while (result !== TURN && !result.done && size < FIRST_MESSAGE_BYTES) {
      const chunk = owned(result.value);
      first.push(chunk);
      size += chunk.byteLength;
      next = reader.read();
      result = await thisTurn(next);
    }
    const ended = result !== TURN && result.done;
    stream.headSent = true;
    post(
      { t: "head", id, status: response.status, headers, body: first, end: ended },
      first.map((c) => c.buffer as ArrayBuffer),
    );
    if (ended) return;
    if (result !== TURN) next = Promise.resolve(result);
    // The rest, chunk by chunk, at most STREAM_WINDOW_BYTES ahead of the client.
    for (;;) {
      let read: ReadResult;
      try {
        read = await next;
      } catch {
        if (!stream.aborted) post({ t: "fail", id });
        return;
      }
      if (stream.aborted) return;
      if (read.done) {
        post({ t: "chunk", id, data: new Uint8Array(0), end: true });
        return;
      }
      const data = owned(read.value);
      stream.unacked += data.byteLength;
      post({ t: "chunk", id, data, end: false }, [data.buffer as ArrayBuffer]);
      while (stream.unacked > STREAM_WINDOW_BYTES && !stream.aborted) {
        await new Promise<void>((resolve) => {
          stream.wake = resolve;
        });
        stream.wake = null;
      }
      if (stream.aborted) return;
      next = reader.read();
    }
  }
}
