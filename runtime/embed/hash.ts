// The built-in offline embedder: a deterministic feature-hashing vector of the text's words
// (the BM25 tokenizer's terms) and of their character trigrams (with word-boundary marks), each
// hashed (FNV-1a) to one of DIMENSION signed buckets, then L2-normalised. Similar vectors mean
// texts that share words or spellings: LEXICAL similarity, not meaning ("car" and "automobile"
// are unrelated to it). Text without terms embeds as the one feature "∅".
import { tokenize } from "../search/tokenizer.js";
import type { Embedder } from "./types.js";

export const HASH_DIMENSION = 256;
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function addFeature(v: Float64Array, feature: string, weight: number): void {
  const h = fnv1a(feature);
  // Low bits pick the bucket, the top bit the sign: collisions cancel out on average.
  v[h % HASH_DIMENSION]! += h & 0x80000000 ? -weight : weight;
}

/** `check`: the query's time limit, called per word (a text near the body limit has a million). */
export function hashEmbedding(text: string, check?: () => void): number[] {
  const v = new Float64Array(HASH_DIMENSION);
  const words = tokenize(text);
  if (words.length === 0) addFeature(v, "∅", 1);
  for (const word of words) {
    check?.();
    addFeature(v, `w:${word}`, WORD_WEIGHT);
    const marked = `<${word}>`;
    const chars = [...marked];
    for (let i = 0; i + 3 <= chars.length; i++) addFeature(v, `c:${chars.slice(i, i + 3).join("")}`, TRIGRAM_WEIGHT);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  // A non-empty feature set can still cancel to zero (opposite signs in one bucket).
  if (norm === 0) return hashEmbedding("");
  return Array.from(v, (x) => x / norm);
}

export function hashEmbedder(): Embedder {
  return { model: "hash", embed: async (texts, options) => texts.map((text) => hashEmbedding(text, options?.check)) };
}
