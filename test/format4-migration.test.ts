// A store written by the format-4 code (test/fixtures/format4/store, made by
// test/support/format1-fixture.ts with that code, before format 5) opens, is migrated to format 5,
// and answers every read exactly as the format-4 code answered it (fixtures/format4/answers.json,
// recorded from that code on this very fixture); `strand verify` is clean afterwards, also after
// a migration killed (SIGKILL) in each phase and resumed. The migrated keys and id values are the
// binary ones of store/keys.ts.
import { open } from "lmdb";
import { afterAll, describe, expect, it } from "vitest";
import { ID_BYTES } from "../runtime/store/id-bytes.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { fixtureId } from "./support/format1-fixture.js";
import { commitLog, FORMAT4_KEYS, interruptedMigration, MigrationFixture, recordingProgress } from "./support/migration-fixture.js";

const fixture = new MigrationFixture("format4");
afterAll(() => fixture.remove());

const hex = (s: string) => Buffer.from(s).toString("hex");
const idHex = (id: string) => id.replaceAll("-", "");

/** Every key and value of the databases format 5 changed, as hex, read as bytes. */
function storedBytes(dir: string): Record<string, [string, string][]> {
  const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 32 });
  try {
    const out: Record<string, [string, string][]> = {};
    for (const name of ["nodes", "edges", "index", "unique", "edge_unique", "vector_ids", "bm25_docs", "bm25_ids"]) {
      const db = env.openDB<Uint8Array, Uint8Array>({ name, keyEncoding: "binary", encoding: "binary" });
      out[name] = [...db.getRange()].map(({ key, value }) => [Buffer.from(key).toString("hex"), Buffer.from(value).toString("hex")]);
    }
    return out;
  } finally {
    void env.close();
  }
}

describe("format 4 → 5 migration", () => {
  it("answers as the format-4 code did, reports its progress and what it did", async () => {
    const dir = fixture.copy();
    const progress = recordingProgress();
    const outcome = await fixture.openAndCheck(dir, progress.sink);
    expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 4, to: 5, entries: FORMAT4_KEYS, ms: "number", resumed: false });
    expect(progress.tasks.filter((t) => t.label.startsWith("migrating"))).toEqual([
      { label: "migrating the store from format 4 to 5", unit: "entries", total: undefined, done: FORMAT4_KEYS, finished: true },
    ]);
    // Opened again: nothing left to migrate.
    expect(await fixture.openAndCheck(dir)).toBeNull();
  });

  it("writes every id in a key, and every id value, as its 16 bytes; record values as they were", async () => {
    const dir = fixture.copy();
    const before = storedBytes(dir);
    await fixture.openAndCheck(dir);
    const after = storedBytes(dir);
    const user0 = fixtureId(1, 0);
    const user1 = fixtureId(1, 1);
    // nodes: "User", 0x00, the id's bytes; the record's bytes unchanged.
    const oldUser = before.nodes!.find(([k]) => k === hex(`User\u0000${user0}`))!;
    const newUser = after.nodes!.find(([k]) => k === `${hex("User")}00${idHex(user0)}`)!;
    expect(newUser[1]).toEqual(oldUser[1]);
    for (const name of ["nodes", "edges", "index", "edge_unique", "vector_ids", "bm25_docs"]) {
      expect(after[name]!.length).toBe(before[name]!.length);
      // Nothing of the text form is left: no key holds 36 characters of an id any more.
      expect(after[name]!.filter(([k]) => k.includes(hex("-7000-8000-")))).toEqual([]);
    }
    // edge_unique: label, 0x00, from's and to's bytes → the edge id's bytes.
    expect(after.edge_unique![0]).toEqual([`${hex("Follows")}00${idHex(user0)}${idHex(user1)}`, idHex(fixtureId(4, 0))]);
    // unique and bm25_ids keep their keys; their values are 16 bytes.
    expect(after.unique!.map(([k]) => k)).toEqual(before.unique!.map(([k]) => k));
    expect(after.bm25_ids!.map(([k]) => k)).toEqual(before.bm25_ids!.map(([k]) => k));
    for (const [, v] of [...after.unique!, ...after.bm25_ids!, ...after.edge_unique!]) expect(v.length).toBe(2 * ID_BYTES);
    // index: the ordered-binary [kind, type, field, value], 0x00, the id's bytes (User.city "Lyon" of user 0).
    expect(after.index!.map(([k]) => k)).toContain(`${hex("N\u0000User\u0000city\u0000Lyon")}00${idHex(user0)}`);
  });

  it("ends the commit log's format-4 history: one entry of no change after the last, the rest trimmed", async () => {
    const dir = fixture.copy();
    // The fixture's writes: the load (a bulk load logs a gap: no changes), then one write through the queries' path.
    expect(commitLog(dir).map(([seq, ops]) => [seq, ops > 0])).toEqual([
      [2, false],
      [3, true],
    ]);
    await fixture.openAndCheck(dir);
    expect(commitLog(dir)).toEqual([[4, 0]]);
  });

  // Batches of 3, in order: nodes (26 entries: batches 1-9) into the scratch database and back
  // (10-18), edges (7: 19-21, 22-24), index (25: 25-33, 34-42), edge_unique (22: 43-50, 51-58),
  // vector_ids (6: 59-61, 62-64), bm25_docs (26: 65-73, 74-82), then the values of unique (12:
  // 83-87) and bm25_ids (26: 88-96) in place.
  for (const [where, killAfter] of [
    ["while it converts the node records", 5],
    ["after the last batch of node records, before they are copied back", 9],
    ["while it copies the node records back", 12],
    ["while it converts the edge records", 20],
    ["while it converts the index entries", 30],
    ["while it copies the index entries back", 40],
    ["while it converts the UNIQUE edge claims", 45],
    ["while it copies the UNIQUE edge claims back", 55],
    ["while it converts the vector slots", 60],
    ["while it converts the keyword documents", 70],
    ["while it copies the keyword documents back", 80],
    ["while it rewrites the UNIQUE INDEX claims", 85],
    ["while it rewrites the keyword document ids", 92],
    ["after its last batch, before format 5 is written", 96],
  ] as const) {
    it(`resumes a migration killed ${where}`, async () => {
      const dir = fixture.copy();
      interruptedMigration(dir, 3, killAfter);
      const outcome = await fixture.openAndCheck(dir);
      expect({ ...outcome, ms: typeof outcome?.ms }).toEqual({ from: 4, to: 5, entries: FORMAT4_KEYS, ms: "number", resumed: true });
    });
  }

  it("refuses to be read without migrating (verify) and says how to migrate", async () => {
    const dir = fixture.copy();
    expect(await verifyDataDir(dir)).toEqual({
      ok: false,
      code: "UNREADABLE",
      message: `${dir} holds a store in format 4, and this version of Strand reads format 5: open it once with \`strand serve\` or \`strand import\` (which migrate it), then retry`,
    });
  });
});
