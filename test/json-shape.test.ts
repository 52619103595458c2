// The body guard of server/http/json-shape.ts: what it counts, and that chunk boundaries (inside
// strings, escapes) change nothing.
import { describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import { JsonShapeGuard } from "../server/http/json-shape.js";

/** The error feeding `text` in chunks of `size` bytes raises, or null. */
function refusal(text: string, maxValues: number, maxDepth: number, size = text.length): unknown {
  const guard = new JsonShapeGuard(maxValues, maxDepth);
  const bytes = Buffer.from(text);
  try {
    for (let at = 0; at < bytes.length; at += size) guard.feed(bytes.subarray(at, at + size));
    return null;
  } catch (error) {
    return error instanceof StrandError ? error.toJSON() : error;
  }
}

const tooMany = (n: number) => ({
  error: `request body holds more than ${n} JSON values (member values and array elements); send them in several requests`,
  code: "PAYLOAD_TOO_LARGE",
});

describe("JsonShapeGuard", () => {
  // The values of a, x, b, c and d, a's 3 elements, and one for d's empty array: 9.
  const body = '{"a":[1,{"x":2},3],"b":{"c":"x,y:[{\\"]"},"d":[]}';

  it("counts member values and array elements, not what is inside strings", () => {
    for (const size of [1, 2, 3, 7, body.length]) {
      expect(refusal(body, 10, 8, size)).toBe(null);
      expect(refusal(body, 9, 8, size)).toBe(null);
      expect(refusal(body, 8, 8, size)).toEqual(tooMany(8));
    }
  });

  it("refuses nesting past its depth, wherever the chunks break", () => {
    const deep = (n: number): string => `${"[".repeat(n)}${"]".repeat(n)}`;
    const tooDeep = { error: "request body nests arrays and objects more than 4 levels deep", code: "INVALID_JSON" };
    for (const size of [1, 3, 100]) {
      expect(refusal(deep(4), 100, 4, size)).toBe(null);
      expect(refusal(deep(5), 100, 4, size)).toEqual(tooDeep);
      expect(refusal(`{"a":"${"[".repeat(10)}"}`, 100, 4, size)).toBe(null);
    }
  });

  it("stray closing brackets do not unbalance it", () => {
    expect(refusal("]]]}}[1,2,3]", 3, 4)).toBe(null);
    expect(refusal("]]]}}[1,2,3,4]", 3, 4)).toEqual(tooMany(3));
  });
});
