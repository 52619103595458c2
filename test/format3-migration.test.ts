// A store written by the format-3 code (test/fixtures/format3/store, made by
// test/support/format1-fixture.ts with that code, before format 4) opens, is migrated to format 4,
// and answers every read exactly as the format-3 code answered it (fixtures/format3/answers.json,
// recorded from that code on this very fixture); `strand verify` is clean afterwards, also after
// a migration killed (SIGKILL) in each phase and resumed.
import { spawnSync } from "node:child_process";
import { open } from "lmdb";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import type { ProgressSink } from "../core/progress.js";
import { answers, withF32Vectors } from "./support/fixture-answers.js";
import { fixtureSchema } from "./support/format1-fixture.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures/format3/store");
const work = tempDir("strand-format3-");
afterAll(() => removeDir(work));

let copies = 0;
function fixtureCopy(): string {
  const dir = path.join(work, `copy-${copies++}`);
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

// Vectors come back at f32 precision since format 4 (the recorded answers are f64).
const EXPECTED: unknown = withF32Vectors(
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/format3/answers.json"), "utf8")),
);

const VERIFIED = {
  ok: true,
  report: {
    counts: {
      nodes: 20,
      edges: 75,
      vectors: 6,
      indexEntries: 25,
      uniqueClaims: 34,
      adjacencyEntries: 150,
      bm25Documents: 26,
      bm25Postings: 126,
      vectorIndexes: 1,
    },
    disagreements: [],
    skipped: [],
  },
};

/** The fixture's edges without a record (68 format-3 `edge_ends` entries), then the 7 blocks they become, then its 6 vector records (rewritten as f32). */
const MIGRATED_KEYS = 81;

async function openAndCheck(dir: string, progress?: ProgressSink): Promise<GraphStore["formatMigration"]> {
  const store = GraphStore.open({ path: dir, schema: fixtureSchema(), ...(progress ? { progress } : {}) });
  const got = store.read((db) => answers(db));
  const outcome = store.formatMigration;
  await store.close();
  expect(got).toEqual(EXPECTED);
  expect(await verifyDataDir(dir)).toEqual(VERIFIED);
  return outcome;
}

/** Runs the migration in a child that kills itself after `killAfter` batches of `batch` keys. */
function interruptedMigration(dir: string, batch: number, killAfter: number): void {
  const dist = path.join(import.meta.dirname, "../dist");
  const child = path.join(import.meta.dirname, "support/format-migration-child.mjs");
  const r = spawnSync(process.execPath, [child, dist, dir, String(batch), String(killAfter)], { encoding: "utf8" });
  expect({ signal: r.signal, stderr: r.stderr }).toEqual({ signal: "SIGKILL", stderr: "" });
}

/** The commit log's sequence numbers and each entry's number of changes (read whatever the format). */
function commitLog(dir: string): [number, number][] {
  const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 32 });
  try {
    // Plain msgpack maps, as runtime/store/dbs.ts opens the log (lmdb's typings list `encoder` for open() only).
    const plainMaps: object = { encoder: { useRecords: false } };
    const log = env.openDB<{ ops: unknown[] }, number>({ name: "commit_log", ...plainMaps });
    return [...log.getRange()].map(({ key, value }) => [key, value.ops.length]);
  } finally {
    void env.close();
  }
}

describe("format 3 → 4 migration", () => {
  it("answers as the format-3 code did, reports its progress and what it did", async () => {
    const dir = fixtureCopy();
    const tasks: { label: string; total: number | undefined; done: number; finished: boolean }[] = [];
    const progress: ProgressSink = {
      start(label, _unit, total) {
        const t = { label, total, done: 0, finished: false };
        tasks.push(t);
        return { advance: (n) => (t.done += n), finish: () => (t.finished = true) };
      },
    };
    const outcome = await openAndCheck(dir, progress);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 3, to: 4, entries: MIGRATED_KEYS, ms: "number", resumed: false });
    expect(tasks.filter((t) => t.label.startsWith("migrating"))).toEqual([
      { label: "migrating the store from format 3 to 4", total: undefined, done: MIGRATED_KEYS, finished: true },
    ]);
    // Opened again: nothing left to migrate.
    expect(await openAndCheck(dir)).toBeNull();
  });

  it("ends the commit log's format-3 history: one entry of no change after the last, the rest trimmed", async () => {
    const dir = fixtureCopy();
    // The fixture's writes: the load (a bulk load logs a gap: no changes), then one write through the queries' path.
    expect(commitLog(dir).map(([seq, ops]) => [seq, ops > 0])).toEqual([
      [2, false],
      [3, true],
    ]);
    await openAndCheck(dir);
    expect(commitLog(dir)).toEqual([[4, 0]]);
  });

  // Batches of 3: 23 of edges (the last short), then 3 of blocks, then 9 of node records (26: 6 vectors among them).
  for (const [where, killAfter] of [
    ["while it groups the edges into blocks", 5],
    ["after the last batch of edges, before the blocks are copied back", 23],
    ["while it copies the blocks back", 24],
    ["while it rewrites the vector records", 33],
  ] as const) {
    it(`resumes a migration killed ${where}`, async () => {
      const dir = fixtureCopy();
      interruptedMigration(dir, 3, killAfter);
      const outcome = await openAndCheck(dir);
      expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 3, to: 4, entries: MIGRATED_KEYS, ms: "number", resumed: true });
    });
  }

  it("refuses to be read without migrating (verify) and says how to migrate", async () => {
    const dir = fixtureCopy();
    expect(await verifyDataDir(dir)).toEqual({
      ok: false,
      code: "UNREADABLE",
      message: `${dir} holds a store in format 3, and this version of Strand reads format 4: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`,
    });
  });
});
