// A store written by the format-2 code (test/fixtures/format2/store, made by
// test/support/format1-fixture.ts with that code, before format 3) opens, is migrated to format 3,
// and answers every read exactly as the format-2 code answered it (fixtures/format2/answers.json,
// recorded from that code on this very fixture); `strand verify` is clean afterwards, also after
// a migration killed (SIGKILL) part-way and resumed.
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

const fixture = new MigrationFixture("format2");
afterAll(() => fixture.remove());

/** The fixture's adjacency keys (tails and chunks, both directions). */
const MIGRATED_KEYS = 60;
/** Then the 3 → 4 step's edges without a record (68 `edge_ends` entries), the 7 blocks they become and the 6 vector records (f32). */
const FORMAT3_KEYS = 81;

describe("format 2 → 3 migration", () => {
  it("answers as the format-2 code did, reports its progress and what it did", async () => {
    const dir = fixture.copy();
    const progress = recordingProgress();
    const outcome = await fixture.openAndCheck(dir, progress.sink);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({
      from: 2,
      to: 5,
      entries: MIGRATED_KEYS + FORMAT3_KEYS + FORMAT4_KEYS,
      ms: "number",
      resumed: false,
    });
    expect(progress.tasks.filter((t) => t.label.startsWith("migrating"))).toEqual([
      { label: "migrating the store from format 2 to 3", unit: "entries", total: MIGRATED_KEYS, done: MIGRATED_KEYS, finished: true },
      { label: "migrating the store from format 3 to 4", unit: "entries", total: undefined, done: FORMAT3_KEYS, finished: true },
      FORMAT4_TASK,
    ]);
    // Opened again: nothing left to migrate.
    expect(await fixture.openAndCheck(dir)).toBeNull();
  });

  it("ends the commit log's format-2 history: one entry of no change after the last, the rest trimmed", async () => {
    const dir = fixture.copy();
    // The fixture's writes: the load, then one write through the queries' path.
    expect(commitLog(dir).map(([seq, ops]) => [seq, ops > 0])).toEqual([
      [1, true],
      [2, true],
    ]);
    await fixture.openAndCheck(dir);
    expect(commitLog(dir)).toEqual([[5, 0]]); // and the 3 → 4 and 4 → 5 steps end their histories the same way
  });

  for (const [where, killAfter] of [
    ["in the out lists", 1],
    ["in the in lists", 4],
  ] as const) {
    it(`resumes a migration killed ${where}`, async () => {
      const dir = fixture.copy();
      interruptedMigration(dir, 10, killAfter);
      const outcome = await fixture.openAndCheck(dir);
      expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({
        from: 2,
        to: 5,
        entries: MIGRATED_KEYS + FORMAT3_KEYS + FORMAT4_KEYS,
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
      message: `${dir} holds a store in format 2, and this version of Strand reads format 5: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`,
    });
  });
});
