// search_nodes with an embedding model (server/memory/search.ts, entity-vectors.ts), in process:
// the memory opened as `strand memory --embedding-model` opens it (cli/commands/memory-store.ts)
// with a tiny embedder of concepts injected, so "automobile" is near "drives a car" without a
// word in common (the built-in `hash` embedder is lexical and could not show it). Exact answers:
// a query no word matches finds the nearest entities; the fused order differs from BM25's where
// the case is built for it; writes keep the vectors current (in their transaction); a store
// written without a model gets its vectors at the next open with one; the vectors survive a
// restart; without a model search_nodes ranks by BM25 alone; a store of the memory's schema
// before it had text vectors opens with the new one and gets them.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import type { TextEmbedder } from "../runtime/embed/types.js";
import type { Entity, KnowledgeGraph } from "../server/memory/graph.js";
import type { Outcome } from "../server/memory/memory-service.js";
import { type OpenedMemory, openMemory } from "../cli/commands/memory-store.js";
import { loadProject } from "../cli/project/load-project.js";
import { GraphStore } from "../runtime/graph-store.js";
import { tempDir } from "./support/server.js";

/** Dimensions: vehicle, drink, place, person, money, and 1 for every text (no text is the zero vector). */
const CONCEPTS: Record<string, number> = {
  car: 0,
  automobile: 0,
  truck: 0,
  drives: 0,
  tea: 1,
  coffee: 1,
  drinks: 1,
  paris: 2,
  city: 2,
  person: 3,
  business: 4,
  shop: 4,
  sells: 4,
  money: 4,
};

/** Embeds by counting concept words; records every text it is asked for. */
function conceptEmbedder(): TextEmbedder & { model: string; texts: string[] } {
  const texts: string[] = [];
  return {
    model: "test:concepts",
    texts,
    embed: async (batch) => {
      texts.push(...batch);
      return batch.map((text) => {
        const v = [0, 0, 0, 0, 0, 1];
        for (const word of text.toLowerCase().split(/[^a-z]+/)) {
          const at = CONCEPTS[word];
          if (at !== undefined) v[at]! += 1;
        }
        return v;
      });
    },
  };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir("strand-memory-vectors-");
  dirs.push(dir);
  return dir;
}

async function open(dir: string, embedder: (TextEmbedder & { model: string }) | null): Promise<OpenedMemory> {
  const opened = await openMemory(dir, "testing", { embedder });
  if (opened === null) throw new Error("the memory did not open");
  return opened;
}

function value<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return outcome.value;
}

async function names(memory: OpenedMemory, query: string): Promise<string[]> {
  return value(await memory.service.searchNodes(query)).entities.map((e) => e.name);
}

const entity = (name: string, entityType: string, ...observations: string[]): Entity => ({ name, entityType, observations });

// Nearest "automobile" (1,0,0,0,0,1), by cosine: Van 1, Alice 0.866, Paris 0.316, Bob 0.289, Shop 0.236.
const PEOPLE = [
  entity("Alice", "person", "drives a car"),
  entity("Bob", "person", "drinks tea"),
  entity("Paris", "city", "capital of France"),
  entity("Shop", "business", "sells coffee and tea"),
  entity("Van", "thing", "a small truck"),
];

describe("search_nodes with an embedding model", () => {
  it("finds by meaning: a query no word of the memory matches answers the nearest entities, with their relations", async () => {
    const memory = await open(dataDir(), conceptEmbedder());
    try {
      value(await memory.service.createEntities(PEOPLE));
      value(await memory.service.createRelations([{ from: "Alice", to: "Van", relationType: "drives" }]));
      const found: KnowledgeGraph = value(await memory.service.searchNodes("automobile"));
      expect(found).toEqual({
        entities: [PEOPLE[4], PEOPLE[0], PEOPLE[2]],
        relations: [{ from: "Alice", to: "Van", relationType: "drives" }],
      });
      // Words and meaning agree on Bob, then Shop; Van (third nearest "tea", 0.5) joins for its meaning alone.
      expect(await names(memory, "tea")).toEqual(["Bob", "Shop", "Van"]);
      // A blank query embeds nothing: the reference's rule (every entity holds "").
      expect(await names(memory, "")).toEqual(["Alice", "Bob", "Paris", "Shop", "Van"]);
    } finally {
      await memory.store.close();
    }
  });

  it("fuses BM25 and vector ranks (RRF): the order differs from BM25's alone where the two rankings disagree", async () => {
    const dir = dataDir();
    // BM25 for "car": Car wash (three of its words) before Alice (one). By meaning: Alice 0.866,
    // Van 0.816, Car wash 0.555. RRF: Alice 1/62 + 1/61 > Car wash 1/61 + 1/63 > Van 1/62.
    const graph = [
      entity("Car wash", "business", "car car", "shop sells money"),
      entity("Alice", "person", "drives a car"),
      entity("Van", "thing", "a truck for the city"),
    ];
    const hybrid = await open(dir, conceptEmbedder());
    try {
      value(await hybrid.service.createEntities(graph));
      expect(await names(hybrid, "car")).toEqual(["Alice", "Car wash", "Van"]);
    } finally {
      await hybrid.store.close();
    }
    const lexical = await open(dir, null);
    try {
      expect(await names(lexical, "car")).toEqual(["Car wash", "Alice"]);
    } finally {
      await lexical.store.close();
    }
  });

  it("keeps each entity's vector current in the write that changes it: add and delete observations, delete entities", async () => {
    const embedder = conceptEmbedder();
    const memory = await open(dataDir(), embedder);
    try {
      value(await memory.service.createEntities(PEOPLE));
      expect(embedder.texts).toEqual(PEOPLE.map((e) => [e.name, e.entityType, ...e.observations].join("\n")));
      // Bob now drives a truck: nearer "automobile" (0.730) than Paris (0.316).
      value(await memory.service.addObservations([{ entityName: "Bob", contents: ["owns a truck", "drives a truck"] }]));
      expect(await names(memory, "automobile")).toEqual(["Van", "Alice", "Bob"]);
      value(await memory.service.deleteObservations([{ entityName: "Bob", observations: ["owns a truck", "drives a truck"] }]));
      expect(await names(memory, "automobile")).toEqual(["Van", "Alice", "Paris"]);
      value(await memory.service.deleteEntities(["Van", "Paris"]));
      expect(await names(memory, "automobile")).toEqual(["Alice", "Bob", "Shop"]);
      expect(memory.store.vectorIndexStatus("EntityText").live).toBe(3);
      // A relation to a name that is no entity makes a placeholder: no vector for it.
      value(await memory.service.createRelations([{ from: "Alice", to: "Ghost", relationType: "knows" }]));
      expect(memory.store.vectorIndexStatus("EntityText").live).toBe(3);
      const report = memory.store.verify();
      expect(report.disagreements).toEqual([]);
      expect(report.counts.vectors).toBe(3);
    } finally {
      await memory.store.close();
    }
  });

  it("a store written without a model gets its vectors when opened with one; they survive a restart", async () => {
    const dir = dataDir();
    const plain = await open(dir, null);
    try {
      value(await plain.service.createEntities(PEOPLE));
      expect(await names(plain, "automobile")).toEqual([]);
    } finally {
      await plain.store.close();
    }
    const first = conceptEmbedder();
    const embedded = await open(dir, first);
    try {
      expect(first.texts).toHaveLength(PEOPLE.length);
      expect(await names(embedded, "automobile")).toEqual(["Van", "Alice", "Paris"]);
    } finally {
      await embedded.store.close();
    }
    // Changed without the model: only that entity's vector is stale at the next open with it.
    const again = await open(dir, null);
    try {
      value(await again.service.addObservations([{ entityName: "Bob", contents: ["owns a truck", "drives a truck"] }]));
    } finally {
      await again.store.close();
    }
    const second = conceptEmbedder();
    const restarted = await open(dir, second);
    try {
      expect(second.texts).toEqual(["Bob\nperson\ndrinks tea\nowns a truck\ndrives a truck"]);
      expect(await names(restarted, "automobile")).toEqual(["Van", "Alice", "Bob"]);
      expect(restarted.store.vectorIndexStatus("EntityText").live).toBe(PEOPLE.length);
    } finally {
      await restarted.store.close();
    }
    // A restart with nothing stale embeds nothing but the query.
    const third = conceptEmbedder();
    const quiet = await open(dir, third);
    try {
      expect(await names(quiet, "automobile")).toEqual(["Van", "Alice", "Bob"]);
      expect(third.texts).toEqual(["automobile"]);
    } finally {
      await quiet.store.close();
    }
  });

  it("refuses a model of another dimension than the stored vectors', and fails a write whose embedding fails, writing nothing", async () => {
    const dir = dataDir();
    const memory = await open(dir, conceptEmbedder());
    value(await memory.service.createEntities(PEOPLE.slice(0, 2)));
    await memory.store.close();
    const wider = { model: "test:wider", embed: async (texts: string[]) => texts.map(() => [1, 0, 0, 0, 0, 0, 0]) };
    expect(await openMemory(dir, "testing", { embedder: wider })).toBeNull();
    const failing = {
      model: "test:concepts",
      embed: (): Promise<number[][]> => Promise.reject(new StrandError("EMBEDDING_FAILED", "the provider is down")),
    };
    const down = await open(dir, failing);
    try {
      const outcome = await down.service.createEntities([entity("Carol", "person")]);
      expect(outcome.ok ? null : outcome.error.code).toBe("EMBEDDING_FAILED");
      expect(value(await down.service.readGraph()).entities.map((e) => e.name)).toEqual(["Alice", "Bob"]);
    } finally {
      await down.store.close();
    }
  });

  it("an import gives its entities vectors in its transaction, merged ones included", async () => {
    const embedder = conceptEmbedder();
    const memory = await open(dataDir(), embedder);
    try {
      const items = [
        { line: 1, kind: "entity" as const, entity: PEOPLE[1]! },
        { line: 2, kind: "entity" as const, entity: entity("Bob", "person", "drives a truck", "owns a truck") },
        { line: 3, kind: "entity" as const, entity: PEOPLE[2]! },
      ];
      expect(value(await memory.service.importItems(items))).toMatchObject({ entities: 3, newEntities: 2, mergedObservations: 2 });
      expect(await names(memory, "automobile")).toEqual(["Bob", "Paris"]);
      expect(memory.store.vectorIndexStatus("EntityText").live).toBe(2);
    } finally {
      await memory.store.close();
    }
  });

  it("a store of the memory's schema before text vectors opens with the new schema and gets them", async () => {
    const dir = dataDir();
    const old = join(dir, "old-project");
    mkdirSync(old);
    writeFileSync(
      join(old, "schema.hx"),
      `N::Entity { UNIQUE INDEX name: String, entityType: String, observations: [String], seq: I64, placeholder: Boolean }
E::Relation { From: Entity, To: Entity, Properties: { relationType: String, seq: I64 } }
N::Counter { UNIQUE INDEX key: String, value: I64 }
`,
    );
    writeFileSync(
      join(old, "queries.hx"),
      `QUERY AddEntity(name: String, entityType: String, observations: [String], seq: I64, placeholder: Boolean) =>
    entity <- AddN<Entity>({name: name, entityType: entityType, observations: observations, seq: seq, placeholder: placeholder})
    RETURN entity
`,
    );
    const project = await loadProject(old, { bm25: true, mcp: false });
    const data = join(dir, "data");
    mkdirSync(data);
    const store = GraphStore.open({ path: data, schema: project.schema, bm25: true, bm25Stemmer: "none" });
    const add = project.queries.find((q) => q.name === "AddEntity")!;
    await store.write((db) => {
      for (const [i, e] of PEOPLE.entries()) add.run(db, { ...e, seq: i + 1, placeholder: false });
    });
    await store.close();
    const memory = await open(data, conceptEmbedder());
    try {
      expect(await names(memory, "automobile")).toEqual(["Van", "Alice", "Paris"]);
      expect(value(await memory.service.readGraph()).entities).toEqual(PEOPLE);
    } finally {
      await memory.store.close();
    }
  });
});
