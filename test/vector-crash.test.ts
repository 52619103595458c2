// Durability of vectors: kill -9 while AddV, UpsertV and DropV writes stream in, reopen, and every
// acknowledged vector is searchable (and every acknowledged drop stays dropped); the reopened
// store passes verify(). The index files on disk (saved by an earlier clean close) are then
// behind LMDB: the open replays the changes logged since them (vector_log), it does not rebuild.
//
// Seeded: the vectors, the plan and the kill point (a number of acknowledged writes) come from one
// seed; a failing run prints it, and `STRAND_CRASH_SEED=<seed> npx vitest run test/vector-crash.test.ts`
// replays the same operations, killed after the same number of acknowledgements (how lmdb
// batches the in-flight writes still varies with timing).
import { afterAll, beforeAll, expect, test } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { f32Vector } from "../runtime/store/vector-encoding.js";
import { between, crashSeed } from "./support/crash-seed.js";
import { parseSettled, runUntilKilled } from "./support/crash-run.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { buildStore } from "./support/transpile-tree.js";
import { gaussian, rng, unitVector, vectorSchema } from "./support/vector-fixtures.js";
import { readIndexFileMeta, type IndexFileMeta } from "../runtime/vector/index-files.js";

const DIM = 16;
const PLAN_LENGTH = 3000;

type Op =
  | { op: "add"; vector: number[]; slug: string }
  | { op: "upsert"; target: number; vector: number[] }
  | { op: "drop"; target: number };

/** Mostly new vectors; an earlier one replaced by a new vector, or dropped, now and then. */
function makePlan(random: () => number): Op[] {
  const plan: Op[] = [];
  const adds: number[] = [];
  const vector = (): number[] => Array.from({ length: DIM }, () => random() * 2 - 1);
  for (let i = 0; i < PLAN_LENGTH; i++) {
    const r = random();
    if (adds.length < 10 || r < 0.8) {
      plan.push({ op: "add", vector: vector(), slug: `crash-${i}` });
      adds.push(i);
    } else if (r < 0.9) {
      plan.push({ op: "upsert", target: adds[between(random, 0, adds.length)]!, vector: vector() });
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
  ({ buildDir, storeModule } = buildStore("strand-vcrash-"));
  dataDir = tempDir("strand-vcrash-");
});

afterAll(() => {
  removeDir(buildDir);
  removeDir(dataDir);
});

test("acknowledged vectors survive SIGKILL; the checkpoint plus the logged changes are replayed; the store verifies clean", async () => {
  const { random } = crashSeed("test/vector-crash.test.ts");
  // A clean first run leaves index files describing 100 vectors.
  const normal = gaussian(random);
  const first = GraphStore.open({ path: dataDir, schema: vectorSchema });
  await first.write((db) => {
    for (let i = 0; i < 100; i++) db.addVector("Doc", unitVector(normal, DIM), { slug: `first-${i}` });
  });
  await first.close();

  const killAt = between(random, 300, 500);
  const plan = makePlan(random);
  const lines = await runUntilKilled({ child: "vector-crash-child.mjs", storeModule, dataDir, schema: vectorSchema, plan, killAt });
  const { acked, horizon } = parseSettled<{ id?: string }>(lines);
  expect(acked.size).toBeGreaterThanOrEqual(killAt);
  /** Does an operation after `after` that may have run replace or drop the vector of op `target`? */
  const changedAfter = (target: number, after: number): boolean =>
    plan.slice(after + 1, horizon).some((op) => op.op !== "add" && op.target === target);

  const checkpoint = readIndexFileMeta(dataDir, "Doc") as IndexFileMeta;
  const store = GraphStore.open({ path: dataDir, schema: vectorSchema });
  try {
    const status = store.vectorIndexStatus("Doc");
    // Every change since the last checkpoint (the clean close's, or one the child made) is replayed.
    expect(status).toMatchObject({ source: "replayed", reason: null });
    expect(checkpoint.generation).toBeGreaterThanOrEqual(100);
    expect(status.replayed).toBe(status.generation - checkpoint.generation);
    const adds = [...acked.keys()].filter((i) => plan[i]!.op === "add").length;
    const drops = plan.slice(0, horizon).filter((op) => op.op === "drop").length;
    expect(status.live).toBeGreaterThanOrEqual(100 + adds - drops);
    store.read((db) => {
      const idOf = (op: number): string => acked.get(op)!.id!;
      const all = new Set(
        db
          .searchVectors(
            "Doc",
            Array.from({ length: DIM }, () => 1),
            status.live,
          )
          .map((d) => d.id),
      );
      expect(all.size).toBe(status.live);
      const lost: string[] = [];
      for (const [i, result] of acked) {
        const op = plan[i]!;
        if (op.op === "drop") {
          if (all.has(idOf(op.target))) lost.push(`op ${i}: dropped vector of op ${op.target} is still found`);
          continue;
        }
        const id = op.op === "add" ? result.id! : idOf(op.target);
        if (changedAfter(op.op === "add" ? i : op.target, i)) continue;
        // Searched with the vector as stored (f32): its own score is then exactly 1.
        const [best] = db.searchVectors("Doc", f32Vector(op.vector), 1);
        if (!all.has(id) || best?.id !== id || best.score !== 1)
          lost.push(`op ${i}: vector ${id} is not its own best hit (got ${JSON.stringify(best && [best.id, best.score])})`);
      }
      expect(lost).toEqual([]);
    });
    expect(store.verify()).toMatchObject({ disagreements: [], skipped: [] });
    await store.write((db) => db.addVector("Doc", unitVector(normal, DIM), { slug: "after crash" }));
    expect(store.verify().disagreements).toEqual([]);
  } finally {
    await store.close();
  }
  // The clean close saved a current index: the next open loads it, and it verifies clean too.
  const again = GraphStore.open({ path: dataDir, schema: vectorSchema });
  try {
    expect(again.vectorIndexStatus("Doc")).toMatchObject({ source: "loaded", reason: null });
    expect(again.verify()).toMatchObject({ disagreements: [], skipped: [] });
  } finally {
    await again.close();
  }
}, 60_000);

test("after SIGKILL the open replays the logged changes onto the last checkpoint: no rebuild, the same search results", async () => {
  const dir = tempDir("strand-vreplay-");
  try {
    const random = rng(77);
    const normal = gaussian(random);
    const DIM8 = 8;
    const first = GraphStore.open({ path: dir, schema: vectorSchema });
    await first.write((db) => {
      for (let i = 0; i < 5000; i++) db.addVector("Doc", unitVector(normal, DIM8), {}); // above the exact limit: HNSW answers
    });
    await first.close();
    // Adds, replaced vectors (old point marked deleted, new slot) and drops of vectors old and new.
    const ops: { op: string; vector?: number[]; target?: number }[] = [];
    let added = 0;
    for (let i = 0; i < 300; i++) {
      const r = random();
      if (added < 20 || r < 0.6) {
        ops.push({ op: "add", vector: unitVector(normal, DIM8) });
        added++;
      } else if (r < 0.8) ops.push({ op: "upsert", target: between(random, 0, added), vector: unitVector(normal, DIM8) });
      else ops.push({ op: "drop", target: between(random, 0, added) });
    }
    // Each target is used once at most (a dropped vector is gone).
    const used = new Set<number>();
    const plan = ops.filter((op) => op.op === "add" || (!used.has(op.target!) && used.add(op.target!)));
    const queries = Array.from({ length: 30 }, () => unitVector(normal, DIM8));
    // An upsert that changes the vector is two changes: the old slot dropped, the new one added.
    const generation = 5000 + plan.reduce((n, op) => n + (op.op === "upsert" ? 2 : 1), 0);
    const lines = await runUntilKilled({
      child: "vector-replay-child.mjs",
      storeModule,
      dataDir: dir,
      schema: vectorSchema,
      plan: { ops: plan, queries, checkpointChanges: 120 } as unknown as unknown[],
      killAt: 1,
    });
    const before = JSON.parse(lines[0]!.slice(2)) as { results: [string, number][][]; checkpoints: { saved: number; failed: number } };
    // A background checkpoint ran in the child (about every 120 changes), so fewer than all are replayed.
    expect(before.checkpoints).toMatchObject({ failed: 0 });
    expect(before.checkpoints.saved).toBeGreaterThanOrEqual(1);
    const saved = readIndexFileMeta(dir, "Doc") as IndexFileMeta;
    expect(saved.generation).toBeGreaterThan(5000 + 100);
    const store = GraphStore.open({ path: dir, schema: vectorSchema });
    try {
      const status = store.vectorIndexStatus("Doc");
      expect(status).toMatchObject({ source: "replayed", reason: null, generation });
      expect(status.replayed).toBe(generation - saved.generation);
      expect(status.replayed).toBeGreaterThan(0);
      const after = store.read((db) => queries.map((q) => db.searchVectors("Doc", q, 10).map((d) => [d.id, d.score])));
      expect(after).toEqual(before.results);
      expect(store.verify()).toMatchObject({ disagreements: [], skipped: [] });
    } finally {
      await store.close();
    }
    // The close saved a checkpoint at the current generation and pruned the log.
    const again = GraphStore.open({ path: dir, schema: vectorSchema });
    try {
      expect(again.vectorIndexStatus("Doc")).toMatchObject({ source: "loaded", replayed: 0 });
    } finally {
      await again.close();
    }
  } finally {
    removeDir(dir);
  }
}, 120_000);
