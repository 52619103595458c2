// The query runner's embedding cache (runtime/query/query-runner.ts): keys stay small whatever the text,
// so 10,000 cached embeddings of texts near the body limit do not hold the texts themselves.
import { expect, test } from "vitest";
import { EmbeddingCache } from "../runtime/query/query-runner.js";

test("a text up to 256 characters is its own key; a longer one is keyed by its SHA-256 digest (base64; checked with Python hashlib)", () => {
  expect(EmbeddingCache.key("hello", "m")).toBe("m\u0000hello");
  expect(EmbeddingCache.key("x".repeat(256), null)).toBe(`\u0000${"x".repeat(256)}`);
  const long = EmbeddingCache.key("x".repeat(257), "m");
  expect(long).toBe("m\u0001FeuVpGLuIL2RpBWuLUrtNBKIGG3aorN5CPfVkvDD+F8=");
  expect(EmbeddingCache.key("y".repeat(257), "m")).not.toBe(long);
});

test("long texts are found again by their digest, each under its own model, and the oldest go first", () => {
  const cache = new EmbeddingCache(2);
  const a = "a".repeat(1_000_000);
  const b = "b".repeat(1_000_000);
  cache.set(a, null, [1]);
  cache.set(a, "other", [2]);
  expect([cache.get(a, null), cache.get(a, "other"), cache.get(b, null)]).toEqual([[1], [2], undefined]);
  cache.set(b, null, [3]); // evicts the least recently used: (a, null) was read before (a, other)
  expect([cache.get(a, null), cache.get(a, "other"), cache.get(b, null)]).toEqual([undefined, [2], [3]]);
});
