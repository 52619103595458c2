// StrandStore against LangGraph's InMemoryStore, differentially: the same seeded random sequences
// of calls (put with and without an index, delete, get, search with filters, queries and pages,
// listNamespaces with prefixes, suffixes and depths) go to both, with the same embedder (Strand's
// `hash`, which the served example uses), and every answer must be the same. Where StrandStore
// differs on purpose (server/langgraph/store-items.ts), the reference is told the same rule, in
// ReferenceStore below, and nowhere else. Then a restart: the store's items survive.
import { rmSync } from "node:fs";
import type { Embeddings } from "@langchain/core/embeddings";
import { InMemoryStore, type Item, type Operation, type SearchItem, type SearchOperation } from "@langchain/langgraph-checkpoint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StrandStore } from "../langgraph/index.js";
import { hashEmbedding } from "../runtime/embed/hash.js";
import { compareItems } from "../server/langgraph/store-items.js";
import { seededRandom } from "../bench/random.js";
import { type StrandServer, startStrand, tempDir } from "./support/server.js";

const FIELDS = ["text", "tags[*]"];

const embeddings = {
  embedDocuments: async (texts: string[]) => texts.map((t) => hashEmbedding(t)),
  embedQuery: async (text: string) => hashEmbedding(text),
} as unknown as Embeddings;

/** InMemoryStore's maps (private to TypeScript, plain members at run time). */
interface Internals {
  data: Map<string, Map<string, Item>>;
  vectors: Map<string, Map<string, Map<string, number[]>>>;
}

/** InMemoryStore with StrandStore's three rules (store-items.ts). Only single-operation batches are sent to it. */
class ReferenceStore extends InMemoryStore {
  override async batch<Op extends readonly Operation[]>(operations: Op): Promise<never> {
    const { data, vectors } = this as unknown as Internals;
    for (const op of operations) {
      // 1. A put replaces the item's vectors (InMemoryStore keeps those of paths the new value lacks).
      if ("value" in op && "key" in op) vectors.get(op.namespace.join(":"))?.delete(op.key);
    }
    const results = await super.batch(operations);
    // 2. A namespace that holds no item is no namespace.
    for (const [ns, items] of data) if (items.size === 0) data.delete(ns);
    return results as never;
  }

  constructor(options: ConstructorParameters<typeof InMemoryStore>[0]) {
    super(options);
    // 3. Unranked results are ordered by namespace, label by label, then key (its candidates, before any ranking).
    const self = this as unknown as { filterItems(op: SearchOperation): Item[] };
    const candidates = self.filterItems.bind(this);
    self.filterItems = (op) =>
      candidates(op).sort((a, b) => compareItems({ namespace: a.namespace, itemKey: a.key }, { namespace: b.namespace, itemKey: b.key }));
  }
}

const NAMESPACES = [["users", "u1"], ["users", "u2"], ["users", "u1", "notes"], ["docs"], ["docs", "a"], ["team", "x", "u1"]];
const WORDS = ["apple", "car", "river", "stone", "music", "green", "fast", "paper", "ocean", "light"];
const PREFIXES = [[], ["users"], ["users", "u1"], ["docs"], ["team"], ["nothing"]];

type Call = { name: string; run: (store: StrandStore | ReferenceStore) => Promise<unknown> };

function randomCalls(seed: number, count: number): Call[] {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const int = (n: number) => Math.floor(random() * n);
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const calls: Call[] = [];
  for (let i = 0; i < count; i++) {
    const ns = pick(NAMESPACES);
    const key = `k${int(5)}`;
    const roll = random();
    if (roll < 0.4) {
      const value: Record<string, unknown> = { text: words(1 + int(4)), n: int(6), tag: pick(["a", "b", "c"]) };
      if (random() < 0.5) value.tags = Array.from({ length: int(3) }, () => pick(WORDS));
      const index = pick([undefined, undefined, false, ["text"], ["tags[*]"], ["$"]] as const);
      calls.push({
        name: `put ${ns} ${key} ${JSON.stringify(value)} ${JSON.stringify(index)}`,
        run: (s) => s.put(ns, key, value, index === undefined ? undefined : index === false ? false : [...index]),
      });
    } else if (roll < 0.5) {
      calls.push({ name: `delete ${ns} ${key}`, run: (s) => s.delete(ns, key) });
    } else if (roll < 0.62) {
      calls.push({ name: `get ${ns} ${key}`, run: (s) => s.get(ns, key) });
    } else if (roll < 0.9) {
      const prefix = pick(PREFIXES);
      const filter = pick([undefined, { tag: "a" }, { n: { $gt: 2 } }, { n: { $in: [1, 2, 3] }, tag: { $ne: "c" } }, { n: { $lte: 1 } }]);
      const query = random() < 0.6 ? words(1 + int(2)) : undefined;
      const options = { filter, query, limit: 1 + int(6), offset: int(3) };
      calls.push({ name: `search ${prefix} ${JSON.stringify(options)}`, run: (s) => s.search(prefix, options) });
    } else {
      const options = {
        prefix: random() < 0.4 ? pick([["users"], ["docs"], ["users", "*"], ["*", "x"]]) : undefined,
        suffix: random() < 0.3 ? pick([["u1"], ["notes"], ["*"]]) : undefined,
        maxDepth: random() < 0.4 ? 1 + int(2) : undefined,
        limit: 1 + int(8),
        offset: int(2),
      };
      calls.push({ name: `listNamespaces ${JSON.stringify(options)}`, run: (s) => s.listNamespaces(options) });
    }
  }
  return calls;
}

/** An answer without its timestamps (compared apart: createdAt ≤ updatedAt), scores to 12 places. */
function comparable(answer: unknown): unknown {
  if (Array.isArray(answer)) return answer.map(comparable);
  if (answer === null || typeof answer !== "object" || !("key" in answer)) return answer;
  const { createdAt, updatedAt, score, ...rest } = answer as SearchItem;
  expect(createdAt.getTime()).toBeLessThanOrEqual(updatedAt.getTime());
  return score === undefined ? rest : { ...rest, score: Math.round(score * 1e12) / 1e12 };
}

describe("StrandStore against InMemoryStore", () => {
  let server: StrandServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDir("strand-langgraph-store-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const seed of [1, 2, 3]) {
    it(`answers 150 random calls as the reference does (seed ${seed})`, async () => {
      const strand = new StrandStore({ url: server.url, index: { fields: FIELDS } });
      // Each seed starts from an empty store: what the last one left is deleted through the store itself.
      for (const item of await strand.search([], { limit: 1000 })) await strand.delete(item.namespace, item.key);
      const reference = new ReferenceStore({ index: { dims: 256, embeddings, fields: FIELDS } });
      let ranked = 0;
      for (const call of randomCalls(seed, 150)) {
        const [mine, theirs] = [await call.run(strand), await call.run(reference)];
        expect(comparable(mine), call.name).toEqual(comparable(theirs));
        if (Array.isArray(mine) && mine.some((m) => typeof m === "object" && "score" in m)) ranked++;
      }
      // The sequences exercise ranked searches, not only unranked ones.
      expect(ranked).toBeGreaterThan(5);
    });
  }

  it("keeps its items across a restart", async () => {
    const strand = new StrandStore({ url: server.url, index: { fields: FIELDS } });
    await strand.put(["users", "u9"], "prefs", { text: "likes green tea", n: 1 });
    const before = await strand.search(["users", "u9"], { query: "green tea" });
    expect(before.map((i) => [i.key, i.value])).toEqual([["prefs", { text: "likes green tea", n: 1 }]]);
    await server.stop();
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
    const after = await new StrandStore({ url: server.url, index: { fields: FIELDS } }).search(["users", "u9"], { query: "green tea" });
    expect(after).toEqual(before);
  });
});
