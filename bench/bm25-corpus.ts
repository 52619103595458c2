// The SearchBM25 bench's synthetic corpus (bench/bm25.ts): documents `N::Doc {title, body}` whose
// words are drawn from a seeded Zipf (s = 1) distribution over a vocabulary of made-up words, as
// natural text does, and queries whose terms are drawn from the same distribution (so frequent
// words, df near N, are queried too).
import type { SchemaDescriptor } from "../core/schema.js";
import { seededRandom, type Random } from "./random.js";

const text = { kind: "scalar", name: "String" } as const;
export const BM25_SCHEMA: SchemaDescriptor = {
  nodes: [
    {
      name: "Doc",
      fields: [
        { name: "title", type: text, index: "none", default: null },
        { name: "body", type: text, index: "none", default: null },
      ],
    },
  ],
  vectors: [],
  edges: [],
};

const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "gu", "he", "ji", "by", "qu"];

/** The i-th word of the vocabulary: distinct, pronounceable, lower-case a-z. */
function wordAt(i: number): string {
  let w = "";
  let n = i;
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return w;
}

/** Draws vocabulary ranks with probability ∝ 1/(rank + 1) (inverse CDF, binary search). */
function zipf(random: Random, size: number): () => number {
  const cdf = new Float64Array(size);
  let h = 0;
  for (let i = 0; i < size; i++) cdf[i] = h += 1 / (i + 1);
  return () => {
    const u = random() * h;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export interface Bm25Corpus {
  docs: { title: string; body: string }[];
  /** Document frequency of every word, to report how common the queried terms are. */
  df: Map<string, number>;
  /** The queries by number of terms (1 and 3), `queries` of each. */
  queries: Map<number, string[][]>;
}

export function bm25Corpus(docCount: number, queryCount: number, vocabulary: number): Bm25Corpus {
  const random = seededRandom(2024);
  const rank = zipf(random, vocabulary);
  const words = (n: number): string[] => Array.from({ length: n }, () => wordAt(rank()));
  const df = new Map<string, number>();
  const docs = Array.from({ length: docCount }, () => {
    const title = words(4 + Math.floor(random() * 5));
    const body = words(40 + Math.floor(random() * 41));
    for (const w of new Set([...title, ...body])) df.set(w, (df.get(w) ?? 0) + 1);
    return { title: title.join(" "), body: body.join(" ") };
  });
  const queries = new Map<number, string[][]>();
  for (const terms of [1, 3])
    queries.set(
      terms,
      Array.from({ length: queryCount }, () => Array.from({ length: terms }, () => wordAt(rank()))),
    );
  return { docs, df, queries };
}
