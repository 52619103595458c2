// A store written by the format-1 code (test/fixtures/format1/store, made by
// test/support/format1-fixture.ts before the format changed) opens, is migrated to the current
// format, and answers every read exactly as the format-1 code answered it (fixtures/format1/answers.json was
// recorded from the format-1 code, on this very fixture); `strand verify` is clean afterwards.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { restoreBackup } from "../runtime/backup/restore.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { FORMAT4_KEYS, FORMAT4_TASK, interruptedMigration, MigrationFixture, recordingProgress } from "./support/migration-fixture.js";

const fixture = new MigrationFixture("format1");
afterAll(() => fixture.remove());

/** Keys of the fixture's format-1 adjacency databases (tails and chunks, both directions: 60) and edge records (75). */
const FORMAT1_KEYS = 135;
/** Then the 1 → 2 step's adjacency keys (60) rekeyed by the 2 → 3 step. */
const FORMAT2_KEYS = 60;
/** Then the 3 → 4 step's edges without a record (68 `edge_ends` entries), the 7 blocks they become and the 6 vector records (f32). */
const FORMAT3_KEYS = 81;
const MIGRATED_KEYS = FORMAT1_KEYS + FORMAT2_KEYS + FORMAT3_KEYS + FORMAT4_KEYS;

describe("format migration", () => {
  it("answers as the format-1 code did, reports its progress and what it did", async () => {
    const dir = fixture.copy();
    const progress = recordingProgress();
    const outcome = await fixture.openAndCheck(dir, progress.sink);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 1, to: 5, entries: MIGRATED_KEYS, ms: "number", resumed: false });
    expect(progress.tasks.filter((t) => t.label.startsWith("migrating"))).toEqual([
      { label: "migrating the store from format 1 to 2", unit: "entries", total: FORMAT1_KEYS, done: FORMAT1_KEYS, finished: true },
      { label: "migrating the store from format 2 to 3", unit: "entries", total: FORMAT2_KEYS, done: FORMAT2_KEYS, finished: true },
      { label: "migrating the store from format 3 to 4", unit: "entries", total: undefined, done: FORMAT3_KEYS, finished: true },
      FORMAT4_TASK,
    ]);
    // Opened again: nothing left to migrate.
    expect(await fixture.openAndCheck(dir)).toBeNull();
  });

  it("refuses to be read without migrating (export, verify) and says how to migrate", async () => {
    const dir = fixture.copy();
    const report = await verifyDataDir(dir);
    expect(report).toEqual({
      ok: false,
      code: "UNREADABLE",
      message: `${dir} holds a store in format 1, and this version of Strand reads format 5: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`,
    });
    // Refusing left it as it was: it still migrates.
    await fixture.openAndCheck(dir);
  });

  it("restores from a backup a format-1 Strand made, and migrates it at the first open", async () => {
    const backup = fixture.scratch("backup");
    fs.mkdirSync(backup);
    fs.copyFileSync(path.join(fixture.store, "data.mdb"), path.join(backup, "data.mdb"));
    const bytes = fs.readFileSync(path.join(backup, "data.mdb"));
    const manifest = {
      format: "strand-backup",
      version: 1,
      created: "2026-11-26T07:00:00.000Z",
      store_format: 1,
      schema_version: null,
      files: [{ path: "data.mdb", bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }],
    };
    fs.writeFileSync(path.join(backup, "manifest.json"), JSON.stringify(manifest));
    const dir = fixture.scratch("restored");
    expect(restoreBackup(backup, dir)).toMatchObject({ ok: true });
    const outcome = await fixture.openAndCheck(dir);
    expect(outcome?.from).toBe(1);
  });

  for (const [where, killAfter] of [
    ["in the out lists", 2],
    ["in the in lists", 5],
    ["in the edge records", 10],
  ] as const) {
    it(`resumes a migration killed ${where}`, async () => {
      const dir = fixture.copy();
      interruptedMigration(dir, 10, killAfter);
      const outcome = await fixture.openAndCheck(dir);
      expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 1, to: 5, entries: MIGRATED_KEYS, ms: "number", resumed: true });
    });
  }

  it("resumes a migration killed in its 2 → 3 step (after the 1 → 2 step finished)", async () => {
    const dir = fixture.copy();
    // 1 → 2 takes 17 batches of 10 (3 of out lists, 4 of in lists, 8 of edges, each phase's last
    // one short), so batch 18 is the 2 → 3 step's second.
    interruptedMigration(dir, 10, 18);
    const outcome = await fixture.openAndCheck(dir);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({
      from: 2,
      to: 5,
      entries: FORMAT2_KEYS + FORMAT3_KEYS + FORMAT4_KEYS,
      ms: "number",
      resumed: true,
    });
  });
});
