// SearchBM25 against an oracle: every expected score is computed here, from the formula and a
// tokenizer of its own (ASCII corpora: lower-cased runs of a-z0-9), never by calling the index.
import { afterEach, describe, expect, test } from "vitest";
import { seededRandom, type Random } from "../bench/random.js";
import { isStrandError } from "../core/errors.js";
import type { NodeItem, Props } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import type { SchemaDescriptor, ValueType } from "../core/schema.js";
import { SEALED_CAPACITY, TAIL_CAPACITY } from "../runtime/search/postings.js";
import { GraphStore, type GraphStoreOptions } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { httpStatus } from "../server/http/status.js";

const s = (name: "String" | "I32" | "ID" | "Date" | "F64"): ValueType => ({ kind: "scalar", name });
const field = (name: string, type: ValueType) => ({ name, type, index: "none" as const, default: null });

const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "Doc",
      fields: [
        field("title", s("String")),
        field("body", s("String")),
        field("tags", { kind: "array", element: s("String") }),
        // Not text: numbers, IDs and Dates are strings on the wire but are not searched.
        field("views", s("I32")),
        field("owner", s("ID")),
        field("published", s("Date")),
      ],
    },
    { name: "Note", fields: [field("text", s("String"))] },
    { name: "Counter", fields: [field("n", s("I32"))] },
  ],
  vectors: [{ name: "Chunk", fields: [field("text", s("String")), field("page", s("I32"))] }],
  edges: [],
};

// ---- the oracle

const K1 = 1.2;
const B = 0.75;

function oracleTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== "");
}

/** A document's text: every String field and every element of [String] fields. */
function docText(doc: NodeItem): string {
  const parts: string[] = [];
  for (const name of ["title", "body", "tags", "text"]) {
    const v = doc[name];
    if (typeof v === "string") parts.push(v);
    if (Array.isArray(v)) parts.push(...(v as string[]));
  }
  return parts.join(" ");
}

interface Hit {
  id: string;
  score: number;
}

interface Corpus {
  docs: readonly NodeItem[];
  toks: string[][];
}

const corpus = (docs: readonly NodeItem[]): Corpus => ({ docs, toks: docs.map((d) => oracleTokens(docText(d))) });

/** BM25 over `docs` (all documents of one type), ranked, ties by id, at most `limit`. */
function oracle(docs: readonly NodeItem[] | Corpus, query: string, limit: number): Hit[] {
  const c = "toks" in docs ? docs : corpus(docs);
  const toks = c.toks;
  const n = toks.length;
  const avg = toks.reduce((sum, t) => sum + t.length, 0) / n;
  const terms = [...new Set(oracleTokens(query))];
  const dfs = terms.map((term) => toks.filter((t) => t.includes(term)).length);
  const hits: Hit[] = [];
  c.docs.forEach((doc, i) => {
    let score = 0;
    let matched = false;
    for (const [j, term] of terms.entries()) {
      const tf = toks[i]!.filter((t) => t === term).length;
      if (tf === 0) continue;
      matched = true;
      const df = dfs[j]!;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      score += idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + B * (toks[i]!.length / avg))));
    }
    if (matched) hits.push({ id: doc.id, score });
  });
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return hits.slice(0, limit);
}

function expectHits(actual: readonly NodeItem[], expected: readonly Hit[]): void {
  expect(actual.map((r) => r.id)).toEqual(expected.map((h) => h.id));
  for (let i = 0; i < actual.length; i++) expect(Math.abs((actual[i]!.score as number) - expected[i]!.score)).toBeLessThan(1e-9);
}

// ---- store helpers

const dirs: string[] = [];
const open: GraphStore[] = [];

function openStore(dir: string, options: Partial<GraphStoreOptions> = {}): GraphStore {
  const store = GraphStore.open({ path: dir, schema, ...options });
  open.push(store);
  return store;
}

function newStore(options: Partial<GraphStoreOptions> = {}): { store: GraphStore; dir: string } {
  const dir = tempDir("strand-bm25-");
  dirs.push(dir);
  return { store: openStore(dir, options), dir };
}

async function close(store: GraphStore): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const search = (store: GraphStore, label: string, text: string, limit = 1000): NodeItem[] =>
  store.read((db) => db.searchBM25(label, text, limit));

const all = (store: GraphStore, label: string): NodeItem[] => store.read((db) => db.nodesByLabel(label));

async function addAll(store: GraphStore, label: string, props: readonly Props[]): Promise<NodeItem[]> {
  return store.write((db) => props.map((p) => db.addNode(label, p)));
}

const CORPUS: Props[] = [
  { title: "Graph databases", body: "A graph database stores nodes and edges.", tags: ["graph", "database"], views: 10 },
  { title: "Vector search", body: "Vector search finds the nearest vectors; graph search walks edges.", tags: ["vector"] },
  { title: "Keyword search", body: "BM25 ranks documents by keyword: keyword, keyword!", views: 3 },
  { title: "Cooking", body: "Slow-cooked beans with garlic and graph paper notes.", published: "2024-01-02T00:00:00.000Z" },
  { title: "Empty body" },
  { body: "nodes nodes nodes edges", tags: ["graph", "graph"] },
  {
    title: "Databases in practice",
    body: "Indexes, transactions, durability; database tuning.",
    owner: "01a1fe50-395d-71e6-8354-a57050244921",
  },
  { tags: [] },
];

// ---- tests

describe("scores", () => {
  test("a two-document corpus, computed by hand", async () => {
    const { store } = newStore();
    await addAll(store, "Note", [{ text: "red green blue" }, { text: "green yellow" }]);
    // N = 2, avglen = 2.5. "red": df 1, idf = ln(1 + 1.5/1.5) = ln 2; in doc 1 tf 1, len 3.
    // "green": df 2, idf = ln(1 + 0.5/2.5) = ln 1.2; doc 1 (len 3) and doc 2 (len 2).
    const red1 = (Math.LN2 * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 3) / 2.5));
    const green1 = (Math.log(1.2) * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 3) / 2.5));
    const green2 = (Math.log(1.2) * 2.2) / (1 + 1.2 * (0.25 + (0.75 * 2) / 2.5));
    const hits = search(store, "Note", "red green");
    expect(hits.map((h) => h.text)).toEqual(["red green blue", "green yellow"]);
    expect(hits[0]!.score).toBeCloseTo(red1 + green1, 12);
    expect(hits[1]!.score).toBeCloseTo(green2, 12);
    // By hand: (0.693147 · 2.2 + 0.182322 · 2.2) / 2.38 = 0.809257.
    expect(red1 + green1).toBeCloseTo(0.809257, 6);
  });

  test("multi-field documents: title, body and [String] tags count; other fields do not", async () => {
    const { store } = newStore();
    await addAll(store, "Doc", CORPUS);
    const docs = all(store, "Doc");
    for (const q of [
      "graph",
      "graph database",
      "keyword",
      "nodes edges",
      "search vector graph",
      "databases",
      "durability tuning",
      "beans graph",
    ]) {
      expectHits(search(store, "Doc", q), oracle(docs, q, 1000));
    }
    // A query term repeated counts once; case and punctuation do not matter.
    expectHits(search(store, "Doc", "GRAPH graph, Graph!"), oracle(docs, "graph", 1000));
    // Dates, IDs and numbers are not text.
    expect(search(store, "Doc", "2024 01a1fe50 10 3")).toEqual([]);
  });

  test("results are the stored records plus score, in schema member order", async () => {
    const { store } = newStore();
    const [doc] = await addAll(store, "Doc", [{ title: "Only one", views: 7 }]);
    const [hit] = search(store, "Doc", "one");
    expect(Object.keys(hit!)).toEqual(["id", "label", "title", "views", "score"]);
    expect(hit).toEqual({ ...doc, score: hit!.score });
  });

  test("statistics are per type", async () => {
    const { store } = newStore();
    await addAll(store, "Doc", CORPUS);
    await addAll(store, "Note", [{ text: "graph graph graph" }, { text: "nothing here" }, { text: "graph theory" }]);
    expectHits(search(store, "Note", "graph"), oracle(all(store, "Note"), "graph", 1000));
    expectHits(search(store, "Doc", "graph"), oracle(all(store, "Doc"), "graph", 1000));
  });

  test("documents without terms count in N and in avglen", async () => {
    const { store } = newStore();
    await addAll(store, "Note", [{ text: "alpha beta" }, {}, { text: "" }, { text: "--" }, { text: "beta" }]);
    const notes = all(store, "Note");
    expect(notes).toHaveLength(5);
    expectHits(search(store, "Note", "beta alpha"), oracle(notes, "beta alpha", 1000));
  });
});

describe("limit, ties and empty queries", () => {
  test("limit applies after ranking", async () => {
    const { store } = newStore();
    await addAll(store, "Doc", CORPUS);
    const docs = all(store, "Doc");
    for (const limit of [0, 1, 2, 3, 100])
      expectHits(search(store, "Doc", "graph database nodes", limit), oracle(docs, "graph database nodes", limit));
    expect(search(store, "Doc", "graph", 0)).toEqual([]);
  });

  test("equal scores are ordered by id, also where the limit cuts through them", async () => {
    const { store } = newStore();
    const made = await addAll(store, "Note", [
      { text: "same words here" },
      { text: "other" },
      { text: "same words here" },
      { text: "same words here" },
      { text: "same words here" },
    ]);
    const twins = made.filter((n) => n.text === "same words here").map((n) => n.id);
    const hits = search(store, "Note", "words", 3);
    expect(hits.map((h) => h.id)).toEqual(twins.slice(0, 3));
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    expect(search(store, "Note", "words").map((h) => h.id)).toEqual(twins);
  });

  test("a query without terms, or with unknown terms, finds nothing", async () => {
    const { store } = newStore();
    await addAll(store, "Doc", CORPUS);
    expect(search(store, "Doc", "")).toEqual([]);
    expect(search(store, "Doc", "  !!! -- ...")).toEqual([]);
    expect(search(store, "Doc", "zebra")).toEqual([]);
  });

  test("a type without text fields, or without documents, finds nothing", async () => {
    const { store } = newStore();
    expect(search(store, "Doc", "graph")).toEqual([]);
    await addAll(store, "Counter", [{ n: 1 }]);
    expect(search(store, "Counter", "1")).toEqual([]);
  });

  test("a query of more than 1,024 distinct terms is INVALID_VALUE naming the count; 1,024 (repeats aside) is searched", async () => {
    const { store } = newStore();
    await addAll(store, "Doc", CORPUS);
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`).join(" ");
    expect(search(store, "Doc", `graph ${terms(1023)} graph graph`).length).toBeGreaterThan(0);
    let caught: unknown;
    try {
      search(store, "Doc", `graph ${terms(1024)}`);
    } catch (error) {
      caught = error;
    }
    expect(isStrandError(caught) && { code: caught.code, status: httpStatus(caught.code), message: caught.message }).toEqual({
      code: "INVALID_VALUE",
      status: 400,
      message: "SearchBM25 text has 1025 distinct terms; at most 1024 (shorten the query)",
    });
  });

  test("a limit that is not an integer >= 0 is INVALID_VALUE", async () => {
    const { store } = newStore();
    for (const limit of [-1, 1.5, Number.NaN]) {
      let caught: unknown;
      try {
        search(store, "Doc", "graph", limit);
      } catch (error) {
        caught = error;
      }
      expect(isStrandError(caught) && caught.code === "INVALID_VALUE" && httpStatus(caught.code) === 400).toBe(true);
    }
  });
});

describe("Unicode", () => {
  test("accents, decomposed input, Cyrillic, Greek, CJK digits, long terms", async () => {
    const { store } = newStore();
    const long = "x".repeat(150);
    const made = await addAll(store, "Note", [
      { text: "Café au lait, naïve art" },
      { text: "Москва — столица России" },
      { text: "第３章 二〇二四年" },
      { text: `${long} end` },
      { text: "ΛΌΓΟΣ" },
    ]);
    const idsOf = (q: string): string[] => search(store, "Note", q).map((h) => h.id);
    expect(idsOf("CAFÉ")).toEqual([made[0]!.id]);
    expect(idsOf("cafe\u0301 nai\u0308ve")).toEqual([made[0]!.id]);
    expect(idsOf("cafe")).toEqual([]); // no accent folding
    expect(idsOf("москва")).toEqual([made[1]!.id]);
    expect(idsOf("第3章")).toEqual([made[2]!.id]);
    expect(idsOf("二〇二四年")).toEqual([made[2]!.id]);
    expect(idsOf("λόγος")).toEqual([made[4]!.id]);
    expect(idsOf(long.toUpperCase())).toEqual([made[3]!.id]);
    expect(idsOf(`${"x".repeat(149)}y`)).toEqual([]);
  });

  test("the English stemmer (bm25Stemmer) matches inflected forms", async () => {
    const { store } = newStore({ bm25Stemmer: "english" });
    const made = await addAll(store, "Note", [{ text: "Running connections" }, { text: "a runner" }]);
    expect(search(store, "Note", "connected run").map((h) => h.id)).toEqual([made[0]!.id]);
  });
});

describe("writes keep the index in step", () => {
  test("updates: changed, emptied and untouched text", async () => {
    const { store } = newStore();
    const made = await addAll(store, "Doc", CORPUS);
    await store.write((db) => {
      db.updateNodes([made[0]!], { body: "now about keyword search only" });
      db.updateNodes([made[2]!], { title: "Keyword", body: "" });
      db.updateNodes([made[1]!], { views: 99 }); // no text change
      db.updateNodes([made[5]!], { tags: ["vector", "vector", "graph"] });
    });
    const docs = all(store, "Doc");
    for (const q of ["graph", "keyword search", "vector", "nodes", "database"]) expectHits(search(store, "Doc", q), oracle(docs, q, 1000));
  });

  test("DROP removes documents (the unindex hook)", async () => {
    const { store } = newStore();
    const made = await addAll(store, "Doc", CORPUS);
    await store.write((db) => db.drop([made[0]!, made[5]!]));
    const docs = all(store, "Doc");
    expect(docs).toHaveLength(CORPUS.length - 2);
    for (const q of ["graph", "nodes edges", "database"]) expectHits(search(store, "Doc", q), oracle(docs, q, 1000));
    // Re-adding after drops gets a fresh document.
    await addAll(store, "Doc", [{ title: "graph again" }]);
    expectHits(search(store, "Doc", "graph"), oracle(all(store, "Doc"), "graph", 1000));
  });

  test("a write sees its own index changes; a failed write leaves none", async () => {
    const { store } = newStore();
    const inside = await store.write((db) => {
      db.addNode("Note", { text: "fresh words" });
      return db.searchBM25("Note", "fresh", 10).map((h) => h.text);
    });
    expect(inside).toEqual(["fresh words"]);
    await expect(
      store.write((db) => {
        db.addNode("Note", { text: "doomed words" });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(search(store, "Note", "doomed words").map((h) => h.text)).toEqual(["fresh words"]);
    expectHits(search(store, "Note", "words"), oracle(all(store, "Note"), "words", 1000));
  });

  test("vectors with String fields are searchable too", async () => {
    const { store } = newStore();
    const chunks = await store.write((db) => [
      db.addVector("Chunk", [1, 0], { text: "graph chunk", page: 1 }),
      db.addVector("Chunk", [0, 1], { text: "other chunk" }),
    ]);
    const hits = search(store, "Chunk", "graph");
    expect(hits.map((h) => h.id)).toEqual([chunks[0]!.id]);
    expectHits(hits, oracle(all(store, "Chunk"), "graph", 1000));
    await store.write((db) => db.drop([chunks[0]!]));
    expect(search(store, "Chunk", "graph")).toEqual([]);
    expectHits(search(store, "Chunk", "chunk"), oracle(all(store, "Chunk"), "chunk", 1000));
  });
});

describe("many documents: posting blocks seal, merge, split, shrink and empty", () => {
  const VOCAB = Array.from({ length: 40 }, (_, i) => `w${i}`);
  /** Zipf-like: low word numbers are frequent, so w0..w3 appear in hundreds of documents. */
  const word = (r: Random): string => VOCAB[Math.floor(VOCAB.length * r() ** 3)]!;
  const words = (r: Random, max: number): string => Array.from({ length: Math.floor(r() * (max + 1)) }, () => word(r)).join(" ");
  const randomDoc = (r: Random): Props => ({
    title: words(r, 4),
    body: words(r, 25),
    tags: Array.from({ length: Math.floor(r() * 3) }, () => word(r)),
  });

  function checkQueries(store: GraphStore, r: Random): void {
    const docs = corpus(all(store, "Doc"));
    for (let i = 0; i < 12; i++) {
      const q = `${word(r)} ${word(r)} ${i % 3 === 0 ? "absent" : word(r)}`;
      expectHits(search(store, "Doc", q), oracle(docs, q, 1000));
      expectHits(search(store, "Doc", q, 7), oracle(docs, q, 7));
    }
  }

  test("random adds, updates and drops agree with the oracle", async () => {
    const r = seededRandom(42);
    const { store } = newStore();
    // Several batches: the frequent terms (w0 is in ~99% of documents, w1 in ~70%) seal their
    // tails many times, merging them into sealed blocks until those are full.
    for (let batch = 0; batch < 7; batch++)
      await addAll(
        store,
        "Doc",
        Array.from({ length: 200 }, () => randomDoc(r)),
      );
    expect(all(store, "Doc").length).toBeGreaterThan(SEALED_CAPACITY + 2 * TAIL_CAPACITY);
    checkQueries(store, r);

    // Updates re-insert old documents into the middle of long lists: a document that gains w1
    // lands in a full sealed block, which splits.
    let docs = all(store, "Doc");
    await store.write((db) => {
      for (let i = 0; i < 300; i++) db.updateNodes([docs[Math.floor(r() * docs.length)]!], randomDoc(r));
    });
    checkQueries(store, r);

    // Drops everywhere, then of the newest documents (tails empty; a sealed block becomes the tail).
    docs = all(store, "Doc");
    await store.write((db) => db.drop(docs.filter(() => r() < 0.3)));
    docs = all(store, "Doc");
    await store.write((db) => db.drop(docs.slice(-TAIL_CAPACITY - 20)));
    checkQueries(store, r);
    await addAll(
      store,
      "Doc",
      Array.from({ length: 50 }, () => randomDoc(r)),
    );
    checkQueries(store, r);

    // Dropping everything leaves nothing to find.
    await store.write((db) => db.drop(all(store, "Doc")));
    expect(search(store, "Doc", VOCAB.join(" "))).toEqual([]);
    await addAll(store, "Doc", [{ title: "w0 w1" }]);
    expectHits(search(store, "Doc", "w0"), oracle(all(store, "Doc"), "w0", 10));
  }, 60_000);
});

describe("configuration at open", () => {
  test("bm25 = false: no index; SearchBM25 is an error; enabling again rebuilds from the records", async () => {
    const { store, dir } = newStore({ bm25: false });
    await addAll(store, "Doc", CORPUS.slice(0, 4));
    expect(() => search(store, "Doc", "graph")).toThrow("bm25 = true");
    await close(store);

    const on = openStore(dir);
    expectHits(search(on, "Doc", "graph search"), oracle(all(on, "Doc"), "graph search", 1000));
    await addAll(on, "Doc", CORPUS.slice(4));
    await close(on);

    // Writes while disabled (adds and updates) are not indexed, so the next enabled open rebuilds.
    const off = openStore(dir, { bm25: false });
    const first = all(off, "Doc")[0]!;
    await off.write((db: QueryContext) => db.updateNodes([first], { body: "rewritten entirely" }));
    await addAll(off, "Doc", [{ title: "graph graph" }]);
    await close(off);
    const again = openStore(dir);
    for (const q of ["graph", "rewritten", "nodes edges"]) expectHits(search(again, "Doc", q), oracle(all(again, "Doc"), q, 1000));
  });

  test("changing the stemmer rebuilds the index", async () => {
    const { store, dir } = newStore();
    await addAll(store, "Note", [{ text: "connections" }, { text: "connected" }]);
    expect(search(store, "Note", "connect")).toEqual([]);
    await close(store);
    const stemmed = openStore(dir, { bm25Stemmer: "english" });
    expect(search(stemmed, "Note", "connect")).toHaveLength(2);
    await close(stemmed);
    const plain = openStore(dir);
    expect(search(plain, "Note", "connect")).toEqual([]);
    expect(search(plain, "Note", "connected")).toHaveLength(1);
  });
});
