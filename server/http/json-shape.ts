// Bounds the work JSON.parse can do on one request body, checked chunk by chunk while the body is
// read (read-body.ts), so the cost of the check is spread over the chunks as they arrive and no
// body that is too big to parse quickly ever reaches JSON.parse on the event loop. Counts the
// values inside the top-level one (each member value, at its `:`; each array element, at the
// `[` and at each `,` of an array: an empty array counts one) and the nesting depth, outside
// strings; it is not a syntax check (json-body.ts reports syntax errors afterwards). Past
// MAX_BODY_VALUES a body is 413 PAYLOAD_TOO_LARGE, past MAX_BODY_DEPTH 400 INVALID_JSON, both
// before the rest arrives; `npm run build && node dist/bench/health-stall.js` measures /health
// while such a body is read.
import { StrandError } from "../../core/errors.js";

/** Most JSON values (member values and array elements, at any depth) one body may hold. */
export const MAX_BODY_VALUES = 100_000;
/** Deepest nesting of arrays and objects one body may have (json-syntax.ts reports the same depth). */
export const MAX_BODY_DEPTH = 1_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

export class JsonShapeGuard {
  private inString = false;
  private escaped = false;
  private depth = 0;
  private values = 0;
  /** Whether each open container (by depth) is an array; deeper input is refused before it is used. */
  private readonly inArray: Uint8Array;

  constructor(
    private readonly maxValues: number = MAX_BODY_VALUES,
    private readonly maxDepth: number = MAX_BODY_DEPTH,
  ) {
    this.inArray = new Uint8Array(maxDepth + 1);
  }

  /** Scans the next chunk of the body; throws PAYLOAD_TOO_LARGE or INVALID_JSON at the first limit it passes. */
  feed(chunk: Uint8Array): void {
    let { inString, escaped, depth, values } = this;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === COLON) values++;
      else if (byte === COMMA) values += this.inArray[depth]!;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++depth > this.maxDepth) throw tooDeep(this.maxDepth);
        const isArray = byte === OPEN_BRACKET ? 1 : 0;
        this.inArray[depth] = isArray;
        values += isArray;
      } else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && depth > 0) depth--;
    }
    if (values > this.maxValues) throw tooManyValues(this.maxValues);
    Object.assign(this, { inString, escaped, depth, values });
  }
}

function tooManyValues(limit: number): StrandError {
  return new StrandError(
    "PAYLOAD_TOO_LARGE",
    `request body holds more than ${limit} JSON values (member values and array elements); send them in several requests`,
  );
}

function tooDeep(limit: number): StrandError {
  return new StrandError("INVALID_JSON", `request body nests arrays and objects more than ${limit} levels deep`);
}
