// Durability of the keyword index: kill -9 while AddN, UPDATE and DROP writes of text documents
// stream in, reopen, and every acknowledged document is found by SearchBM25 under its current
// text (and every acknowledged drop is gone) — postings change in the record's own transaction,
// so the index holds exactly the documents the data holds; the reopened store passes verify().
//
// Seeded: the plan and the kill point (a number of acknowledged writes) come from one seed; a
// failing run prints it, and `STRAND_CRASH_SEED=<seed> npx vitest run test/bm25-crash.test.ts`
// replays the same operations, killed after the same number of acknowledgements (how lmdb
// batches the in-flight writes still varies with timing).
import { afterAll, beforeAll, expect, test } from "vitest";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { between, crashSeed } from "./support/crash-seed.js";
import { parseSettled, runUntilKilled } from "./support/crash-run.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { buildStore } from "./support/transpile-tree.js";

const text = { kind: "scalar", name: "String" } as const;
const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "Note",
      fields: [
        { name: "title", type: text, index: "none", default: null },
        { name: "text", type: text, index: "none", default: null },
      ],
    },
  ],
  vectors: [],
  edges: [],
};

const PLAN_LENGTH = 3000;

/** Each text has "shared" and a term of its own (`doc<op>`), so a note's own term finds only it. */
type Op =
  | { op: "add"; title: string; text: string; term: string }
  | { op: "update"; target: number; text: string; term: string }
  | { op: "drop"; target: number };

function makePlan(random: () => number): Op[] {
  const plan: Op[] = [];
  const adds: number[] = [];
  // Repeated words vary each document's length and term frequencies.
  const filler = (): string =>
    Array.from({ length: between(random, 0, 6) }, () => ["words", "and", "more"][between(random, 0, 3)]).join(" ");
  for (let i = 0; i < PLAN_LENGTH; i++) {
    const r = random();
    const term = `doc${i}`;
    if (adds.length < 10 || r < 0.8) {
      plan.push({ op: "add", title: `Lane ${between(random, 0, 8)}`, text: `shared ${filler()} ${term}`, term });
      adds.push(i);
    } else if (r < 0.92) {
      plan.push({ op: "update", target: adds[between(random, 0, adds.length)]!, text: `shared ${filler()} ${term}`, term });
    } else {
      plan.push({ op: "drop", target: adds[between(random, 0, adds.length)]! });
    }
  }
  return plan;
}

let buildDir = "";
let storeModule = "";
let dataDir = "";

beforeAll(() => {
  ({ buildDir, storeModule } = buildStore("strand-bm25crash-"));
  dataDir = tempDir("strand-bm25crash-");
});

afterAll(() => {
  removeDir(buildDir);
  removeDir(dataDir);
});

test("acknowledged documents are findable after SIGKILL, and the store verifies clean", async () => {
  const { random } = crashSeed("test/bm25-crash.test.ts");
  // Past 300 the "shared" term's list has sealed blocks.
  const killAt = between(random, 300, 500);
  const plan = makePlan(random);
  const lines = await runUntilKilled({ child: "bm25-crash-child.mjs", storeModule, dataDir, schema, plan, killAt });
  const { acked, horizon } = parseSettled<{ id?: string }>(lines);
  expect(acked.size).toBeGreaterThanOrEqual(killAt);
  const changedAfter = (target: number, after: number): boolean =>
    plan.slice(after + 1, horizon).some((op) => op.op !== "add" && op.target === target);

  const store = GraphStore.open({ path: dataDir, schema });
  try {
    store.read((db) => {
      const idOf = (op: number): string => acked.get(op)!.id!;
      const lost: string[] = [];
      for (const [i, result] of acked) {
        const op = plan[i]!;
        if (op.op === "drop") {
          if (db.nodesByLabel("Note").some((n) => n.id === idOf(op.target))) lost.push(`op ${i}: dropped note of op ${op.target} is back`);
          continue;
        }
        const id = op.op === "add" ? result.id! : idOf(op.target);
        if (changedAfter(op.op === "add" ? i : op.target, i)) continue;
        // Each acknowledged document is the best (and only) hit for its own term.
        const hits = db.searchBM25("Note", op.term, 5).map((h) => h.id);
        if (hits.join() !== id) lost.push(`op ${i}: ${op.term} finds ${JSON.stringify(hits)}, not ${id}`);
      }
      expect(lost).toEqual([]);
      // The index and the data agree on the whole set, acknowledged or not: every note has "shared".
      const notes = db.nodesByLabel("Note").map((n) => n.id);
      const found = db.searchBM25("Note", "shared", notes.length + 10).map((h) => h.id);
      expect([...found].sort()).toEqual(notes);
    });
    expect(store.verify()).toMatchObject({ disagreements: [], skipped: [] });
    await store.write((db) => db.addNode("Note", { text: "after the crash" }));
    expect(store.read((db) => db.searchBM25("Note", "crash", 5).map((h) => h.text))).toEqual(["after the crash"]);
    expect(store.verify().disagreements).toEqual([]);
  } finally {
    await store.close();
  }
}, 60_000);
