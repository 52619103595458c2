// The engine's Response: what Hono and our routes build with `new Response(body, init)`, kept as
// given until something reads more than its status and headers. Node 20's Response wraps every
// body in a web ReadableStream (made transferable, which is costly), and the engine then read that
// stream back chunk by chunk: for a point read that was about a third of the engine's CPU. An
// answer whose body is text or bytes now goes to the front door as those bytes (`answerParts`);
// reading any other member (the body stream, `text()`, `clone()`, ...) builds the real Response
// first, so code that treats it as a Response sees one.
//
// Installed as the global Response of the engine's thread (`useAnswerResponses`), since Hono builds
// its answers with the global; `instanceof Response` holds for both kinds.

import { delegatingPrototype } from "./delegating-prototype.js";

const RealResponse: typeof Response = globalThis.Response;

const BODY = Symbol("body");
const INIT = Symbol("init");
const HEADERS = Symbol("headers");
const REAL = Symbol("real");

type Body = ConstructorParameters<typeof Response>[0];

interface AnswerFields {
  [BODY]: Body;
  [INIT]: ResponseInit | undefined;
  /** The live headers, once read (a copy of the init's). */
  [HEADERS]?: Headers;
  [REAL]?: Response;
}

/** What the front door needs of an answer whose body is already whole. */
export interface AnswerParts {
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie kept apart is not needed here). */
  headers: Record<string, string>;
  /** The body's UTF-8 text or bytes, as given (not copied); null for none. */
  body: string | Uint8Array | null;
}

const TEXT_TYPE = "text/plain;charset=UTF-8";

function real(answer: AnswerFields): Response {
  let response = answer[REAL];
  if (response === undefined) {
    const init = answer[INIT];
    const headers = answer[HEADERS];
    response = new RealResponse(
      answer[BODY],
      headers === undefined ? init : { status: init?.status, statusText: init?.statusText, headers },
    );
    answer[REAL] = response;
  }
  return response;
}

function isAnswer(value: object): value is AnswerFields {
  return INIT in value;
}

function AnswerResponse(this: AnswerFields, body?: Body, init?: ResponseInit): void {
  if (!new.target) throw new TypeError("Response must be called with new");
  this[BODY] = body ?? null;
  this[INIT] = init;
  // A status the real constructor refuses is refused here too, at construction.
  const status = init?.status;
  if (status !== undefined && (!Number.isInteger(status) || status < 200 || status > 599 || (body != null && NULL_BODY.has(status)))) {
    real(this);
  }
}

/** Statuses whose response has no body. */
const NULL_BODY = new Set([204, 205, 304]);

/** Members answered without building the real Response. */
const OWN: ReadonlySet<PropertyKey> = new Set(["status", "ok", "headers"]);
const prototype = delegatingPrototype<AnswerFields>(RealResponse.prototype, OWN, real);
Object.defineProperty(prototype, "status", {
  get(this: AnswerFields) {
    return this[REAL]?.status ?? this[INIT]?.status ?? 200;
  },
});
Object.defineProperty(prototype, "ok", {
  get(this: AnswerFields) {
    const status = (this as unknown as Response).status;
    return status >= 200 && status < 300;
  },
});
Object.defineProperty(prototype, "headers", {
  get(this: AnswerFields) {
    const response = this[REAL];
    if (response !== undefined) return response.headers;
    let headers = this[HEADERS];
    if (headers === undefined) {
      headers = new Headers(this[INIT]?.headers);
      if (typeof this[BODY] === "string" && !headers.has("content-type")) headers.set("content-type", TEXT_TYPE);
      this[HEADERS] = headers;
    }
    return headers;
  },
});
Object.defineProperty(prototype, "constructor", { value: AnswerResponse, writable: true, configurable: true });
AnswerResponse.prototype = prototype;
Object.setPrototypeOf(AnswerResponse, RealResponse);
// A real Response (fetch's, or one built before this was installed) is an instance too.
Object.defineProperty(AnswerResponse, Symbol.hasInstance, {
  value: (value: unknown) => value instanceof RealResponse,
});

/** The Response class of the engine's thread. */
export const EngineResponse = AnswerResponse as unknown as typeof Response;

/** Makes `new Response(..)` in this thread build answers (idempotent). */
export function useAnswerResponses(): void {
  globalThis.Response = EngineResponse;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value Headers keeps as it is: no line breaks or NUL, no whitespace at either end. */
const PLAIN_VALUE = /^(?:[^\0\r\n\t ](?:[^\0\r\n]*[^\0\r\n\t ])?)?$/;

/**
 * `init`'s headers into `out` (lower-case names, repeats joined); false when one is a header
 * Headers would refuse or rewrite, which the real Response's constructor then deals with.
 */
function headerRecord(init: ResponseInit["headers"], out: Record<string, string>): boolean {
  if (init === undefined) return true;
  if (init instanceof Headers) {
    // Checked when they were set.
    init.forEach((value, name) => {
      out[name] = value;
    });
    return true;
  }
  const add = (name: string, value: string): boolean => {
    if (typeof name !== "string" || typeof value !== "string" || !TOKEN.test(name) || !PLAIN_VALUE.test(value)) return false;
    const key = name.toLowerCase();
    const seen = out[key];
    out[key] = seen === undefined ? value : `${seen}, ${value}`;
    return true;
  };
  if (Array.isArray(init)) {
    for (const pair of init) if (pair.length !== 2 || !add(pair[0]!, pair[1]!)) return false;
    return true;
  }
  for (const name of Object.keys(init)) if (!add(name, (init as Record<string, string>)[name]!)) return false;
  return true;
}

/**
 * The parts of `response` when it is an answer not turned into a real Response and its body is
 * text, bytes or none; null otherwise (read its body stream instead).
 */
export function answerParts(response: Response): AnswerParts | null {
  if (!isAnswer(response) || response[REAL] !== undefined) return null;
  const body = response[BODY];
  if (body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) return null;
  const headers: Record<string, string> = {};
  const live = response[HEADERS];
  if (live !== undefined) headerRecord(live, headers);
  else {
    if (!headerRecord(response[INIT]?.headers, headers)) return null;
    if (typeof body === "string" && headers["content-type"] === undefined) headers["content-type"] = TEXT_TYPE;
  }
  return { status: response[INIT]?.status ?? 200, headers, body };
}
