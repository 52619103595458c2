// A query's answer as JSON. Almost always one JSON.stringify; but V8 cannot build a string longer
// than about 512 MiB, and an answer past that (a traversal returning a large record many times, a
// big label read whole) threw "Invalid string length", which the client saw as a 500 after the
// work was done. Such an answer is written in chunks instead, each value as JSON.stringify would
// write it, so the client gets exactly the same bytes as it would from one string.
//
// An answer past the answer limit (strand.toml [server] answer_limit, default 256 MiB of JSON) is
// refused instead, 400 RESULT_TOO_LARGE naming its size and the limit: three parallel reads of a
// 557 MiB answer took the engine to 3.6 GB and stalled every request behind them.
//
// A long answer's text is then handed on in slices, each encoded to UTF-8 only when the stream is
// pulled (the front door pulls at most its window ahead of what the client has read): the engine
// holds the one string, not also its whole UTF-8 copy, and the front door only the window.
import type { Context } from "hono";
import { StrandError } from "../../core/errors.js";
import type { JsonValue } from "../../core/schema.js";

/** The answer limit unless set otherwise: 256 MiB of JSON (0 takes none). */
export const DEFAULT_ANSWER_LIMIT_BYTES = 256 * 1024 * 1024;

/** Bytes gathered before a chunk is handed on (the stream is pulled: a slow client holds it). */
const CHUNK_CHARS = 1 << 20;

/**
 * The answer `value` as a JSON response: one string, or written in chunks when its text is too
 * long for one; RESULT_TOO_LARGE past `limitBytes` of UTF-8 (0: no limit).
 */
export function jsonAnswer(c: Context, value: JsonValue, limitBytes = DEFAULT_ANSWER_LIMIT_BYTES): Response {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    if (!stringTooLong(error)) throw error;
    // Past the longest string V8 builds (~512 Mi characters, so at least that many bytes).
    if (limitBytes > 0 && limitBytes <= MIN_BYTES_TOO_LONG) throw answerTooLarge(`more than ${MIN_BYTES_TOO_LONG}`, limitBytes);
    return c.body(jsonStream(value, limitBytes), 200, { "Content-Type": "application/json" });
  }
  if (limitBytes > 0 && text.length > limitBytes / 3) {
    // UTF-8 takes 1 to 3 bytes per UTF-16 unit: only an answer this long can pass the limit.
    const size = Buffer.byteLength(text);
    if (size > limitBytes) throw answerTooLarge(String(size), limitBytes);
  }
  c.header("Content-Type", "application/json");
  if (text.length <= SLICE_CHARS) return c.body(text);
  c.header("Content-Length", String(Buffer.byteLength(text)));
  return c.body(textSlices(text));
}

/** UTF-16 units of a long answer encoded per pull: ~256 KiB to 768 KiB of UTF-8. */
const SLICE_CHARS = 256 * 1024;

/** `text` as UTF-8, one slice per pull; a slice never ends between the two halves of a surrogate pair. */
export function textSlices(text: string, sliceChars = SLICE_CHARS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let end = Math.min(text.length, at + sliceChars);
      // A high surrogate last: its low half goes with the next slice.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
      controller.enqueue(encoder.encode(text.slice(at, end)));
      at = end;
      if (at >= text.length) controller.close();
    },
  });
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** The fewest characters a string V8 cannot build holds: 2^29 - 24 (its longest, on 64-bit). */
const MIN_BYTES_TOO_LONG = 2 ** 29 - 24;

function answerTooLarge(size: string, limitBytes: number): StrandError {
  return new StrandError(
    "RESULT_TOO_LARGE",
    `the answer is ${size} bytes of JSON, over the answer limit of ${limitBytes} bytes; ask for fewer items (RANGE) or fields (::{..}), or raise the limit: answer_limit under [server] in strand.toml, strand serve --answer-limit or STRAND_ANSWER_LIMIT`,
  );
}

/**
 * The JSON text of `value` (exactly JSON.stringify's, which could not hold it), in chunks of UTF-8.
 * Past `limitBytes` (0: none) the stream errs, so the client sees the answer cut off, not complete.
 */
export function jsonStream(value: unknown, limitBytes = 0): ReadableStream<Uint8Array> {
  const pieces = jsonPieces(value, "");
  const encoder = new TextEncoder();
  let sent = 0;
  const enqueue = (controller: ReadableStreamDefaultController<Uint8Array>, chunk: string): boolean => {
    const bytes = encoder.encode(chunk);
    sent += bytes.length;
    if (limitBytes > 0 && sent > limitBytes) {
      controller.error(answerTooLarge(`more than ${limitBytes}`, limitBytes));
      return false;
    }
    controller.enqueue(bytes);
    return true;
  };
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let chunk = "";
      for (let next = pieces.next(); ; next = pieces.next()) {
        if (next.done) {
          if (chunk !== "" && !enqueue(controller, chunk)) return;
          controller.close();
          return;
        }
        chunk += next.value;
        if (chunk.length >= CHUNK_CHARS) break;
      }
      enqueue(controller, chunk);
    },
  });
}

/**
 * JSON.stringify(value) in pieces: arrays and objects member by member, each member in one piece
 * unless its own text is too long for one string. `key` is what toJSON is called with, as
 * JSON.stringify does. At the top, `value` is one JSON.stringify could not write whole.
 */
export function* jsonPieces(value: unknown, key: string): Generator<string> {
  const v = withToJson(value, key);
  if (Array.isArray(v)) {
    yield "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield ",";
      const text = memberText(v[i], String(i));
      if (text === TOO_LONG) yield* jsonPieces(v[i], String(i));
      else yield text ?? "null";
    }
    yield "]";
    return;
  }
  if (v !== null && typeof v === "object") {
    yield "{";
    let first = true;
    const record = v as Record<string, unknown>;
    for (const k of Object.keys(record)) {
      const text = memberText(record[k], k);
      if (text === undefined) continue;
      yield `${first ? "" : ","}${JSON.stringify(k)}:`;
      first = false;
      if (text === TOO_LONG) yield* jsonPieces(record[k], k);
      else yield text;
    }
    yield "}";
    return;
  }
  yield JSON.stringify(v) ?? "null";
}

const TOO_LONG = Symbol("too long");

/**
 * A member's JSON text as JSON.stringify writes it inside its array or object (undefined: one
 * it leaves out, such as undefined), or TOO_LONG when that text does not fit in one string.
 */
function memberText(value: unknown, key: string): string | undefined | typeof TOO_LONG {
  try {
    if (!hasToJson(value)) return JSON.stringify(value) as string | undefined;
    // Through a wrapper, so that toJSON is called with the member's key, as JSON.stringify does.
    const text = JSON.stringify({ [key]: value });
    return text === "{}" ? undefined : text.slice(JSON.stringify(key).length + 2, -1);
  } catch (error) {
    if (!stringTooLong(error)) throw error;
    return TOO_LONG;
  }
}

function hasToJson(value: unknown): boolean {
  return value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function";
}

function withToJson(value: unknown, key: string): unknown {
  return hasToJson(value) ? (value as { toJSON: (key: string) => unknown }).toJSON(key) : value;
}

/** V8's error for a string past its longest ("Invalid string length"). */
function stringTooLong(error: unknown): boolean {
  return error instanceof RangeError && error.message.includes("Invalid string length");
}
