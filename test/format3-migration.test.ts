// A store written by the format-3 code (test/fixtures/format3/store, made by
// test/support/format1-fixture.ts with that code, before format 4) opens, is migrated to format 4 (then 5),
// and answers every read exactly as the format-3 code answered it (fixtures/format3/answers.json,
// recorded from that code on this very fixture); `strand verify` is clean afterwards, also after
// a migration killed (SIGKILL) in each phase and resumed.
import { afterAll, describe, expect, it } from "vitest";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import {
  commitLog,
  FORMAT4_KEYS,
  FORMAT4_TASK,
  interruptedMigration,
  MigrationFixture,
  recordingProgress,
} from "./support/migration-fixture.js";

const fixture = new MigrationFixture("format3");
afterAll(() => fixture.remove());

/** The fixture's edges without a record (68 format-3 `edge_ends` entries), then the 7 blocks they become, then its 6 vector records (rewritten as f32). */
const MIGRATED_KEYS = 81;

describe("format 3 → 4 migration", () => {
  it("answers as the format-3 code did, reports its progress and what it did", async () => {
    const dir = fixture.copy();
    const progress = recordingProgress();
    const outcome = await fixture.openAndCheck(dir, progress.sink);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({
      from: 3,
      to: 5,
      entries: MIGRATED_KEYS + FORMAT4_KEYS,
      ms: "number",
      resumed: false,
    });
    expect(progress.tasks.filter((t) => t.label.startsWith("migrating"))).toEqual([
      { label: "migrating the store from format 3 to 4", unit: "entries", total: undefined, done: MIGRATED_KEYS, finished: true },
      FORMAT4_TASK,
    ]);
    // Opened again: nothing left to migrate.
    expect(await fixture.openAndCheck(dir)).toBeNull();
  });

  it("ends the commit log's format-3 history: one entry of no change after the last, the rest trimmed", async () => {
    const dir = fixture.copy();
    // The fixture's writes: the load (a bulk load logs a gap: no changes), then one write through the queries' path.
    expect(commitLog(dir).map(([seq, ops]) => [seq, ops > 0])).toEqual([
      [2, false],
      [3, true],
    ]);
    await fixture.openAndCheck(dir);
    expect(commitLog(dir)).toEqual([[5, 0]]); // the 4 → 5 step ends format 4's history the same way
  });

  // Batches of 3: 23 of edges (the last short), then 3 of blocks, then 9 of node records (26: 6 vectors among them).
  for (const [where, killAfter] of [
    ["while it groups the edges into blocks", 5],
    ["after the last batch of edges, before the blocks are copied back", 23],
    ["while it copies the blocks back", 24],
    ["while it rewrites the vector records", 33],
  ] as const) {
    it(`resumes a migration killed ${where}`, async () => {
      const dir = fixture.copy();
      interruptedMigration(dir, 3, killAfter);
      const outcome = await fixture.openAndCheck(dir);
      expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({
        from: 3,
        to: 5,
        entries: MIGRATED_KEYS + FORMAT4_KEYS,
        ms: "number",
        resumed: true,
      });
    });
  }

  it("refuses to be read without migrating (verify) and says how to migrate", async () => {
    const dir = fixture.copy();
    expect(await verifyDataDir(dir)).toEqual({
      ok: false,
      code: "UNREADABLE",
      message: `${dir} holds a store in format 3, and this version of Strand reads format 5: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`,
    });
  });
});
