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
import { answerParts } from "./answer-response.js";
import { EngineTurns, type Turn } from "./engine-turns.js";
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
  /** The turns this side's requests wait for, shared with the engine's other door (engine-turns.ts); its own by default. */
  turns?: EngineTurns | undefined;
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

export class EngineSide {
  private readonly streams = new Map<number, Stream>();
  /** The turn each request not started yet waits for, by request id. */
  private readonly waiting = new Map<number, Turn>();
  private readonly turns: EngineTurns;

  constructor(private readonly options: EngineSideOptions) {
    this.turns = options.turns ?? new EngineTurns();
  }

  onMessage(message: ToEngine): void {
    switch (message.t) {
      case "request": {
        const { id } = message;
        const turn = this.turns.enqueue(message.remoteAddress, () => {
          this.waiting.delete(id);
          void this.answer(message);
        });
        this.waiting.set(id, turn);
        return;
      }
      case "ping":
        this.options.post({ t: "pong", seq: message.seq, commit: this.options.commit() });
        return;
      case "record":
        this.options.record(message.record);
        return;
      case "abort": {
        const turn = this.waiting.get(message.id);
        if (turn !== undefined) {
          this.waiting.delete(message.id);
          this.turns.cancel(turn);
          return;
        }
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
