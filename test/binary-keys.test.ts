// Format 5's binary keys (runtime/store/keys.ts) at their edges: ids whose bytes start with 0x00 or
// 0xff (an import may bring any UUID) stay inside their label's range and their index value's
// range, in id order; a label that is a prefix of another keeps its own range; ids that are not
// lower-case UUIDs name nothing (NOT_FOUND) instead of reaching a key; a malformed stored key is a
// verify finding, not a crash.
import { afterEach, describe, expect, test } from "vitest";
import type { GraphItem } from "../core/items.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { GraphStore } from "../runtime/graph-store.js";
import {
  edgeUniqueKey,
  indexBound,
  indexKey,
  itemKey,
  keyId,
  labelRange,
  parseEdgeUniqueKey,
  parseIndexKey,
  parseItemKey,
} from "../runtime/store/keys.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const SCHEMA = `
N::U { INDEX n: I64, UNIQUE INDEX h: String }
N::UX { n: I64 }
E::L UNIQUE { From: U, To: U, Properties: { INDEX w: I64 } }
`;

const LOW = "00000000-0000-4000-8000-000000000000";
const MID = "0190a000-0000-7000-8000-000000000001";
const HIGH = "ffffffff-ffff-4fff-bfff-ffffffffffff";
const E_LOW = "00000000-0000-4000-8000-0000000000e1";
const E_HIGH = "ffffffff-ffff-4fff-bfff-ffffffffffe2";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

async function store(): Promise<{ store: GraphStore; dir: string }> {
  const dir = tempDir("strand-binary-keys-");
  dirs.push(dir);
  const s = GraphStore.open({ path: dir, schema: schemaOf(SCHEMA) });
  await s.load((loader) => {
    // Loaded out of id order: the keys order them.
    for (const [id, n] of [
      [HIGH, 5],
      [LOW, 5],
      [MID, 7],
    ] as const)
      loader.load({ kind: "N", label: "U", id, props: { n, h: `h${n}-${id.slice(0, 2)}` } });
    loader.load({ kind: "N", label: "UX", id: "0190b000-0000-7000-8000-000000000001", props: { n: 5 } });
    loader.load({ kind: "E", label: "L", id: E_HIGH, from: HIGH, to: LOW, props: { w: 1 } });
    loader.load({ kind: "E", label: "L", id: E_LOW, from: LOW, to: HIGH, props: { w: 1 } });
  });
  return { store: s, dir };
}

const ids = (items: readonly GraphItem[]) => items.map((i) => i.id);

describe("binary keys", () => {
  test("build and parse back", () => {
    expect(parseItemKey(itemKey("U", HIGH))).toEqual({ label: "U", id: HIGH });
    expect(keyId(itemKey("Ünïcode", LOW))).toBe(LOW);
    expect(parseIndexKey(indexKey("N", "U", "n", -2.5, MID))).toEqual({ kind: "N", type: "U", field: "n", value: -2.5, id: MID });
    expect(parseEdgeUniqueKey(edgeUniqueKey("L", LOW, HIGH))).toEqual({ label: "L", from: LOW, to: HIGH });
    // Every id of a label, 0x00.. to 0xff.., sorts inside its range; another label's keys do not.
    const { start, end } = labelRange("U");
    const inside = (k: Uint8Array) => Buffer.compare(k, start) >= 0 && Buffer.compare(k, end) < 0;
    expect([LOW, MID, HIGH].map((id) => inside(itemKey("U", id)))).toEqual([true, true, true]);
    expect([itemKey("UX", LOW), itemKey("T", HIGH), itemKey("V", LOW)].map(inside)).toEqual([false, false, false]);
    // An index value's range holds all of its ids and nothing of the next value.
    const lo = indexBound(["N", "U", "n", 5]);
    const hi = indexBound(["N", "U", "n", 5], true);
    const within = (k: Uint8Array) => Buffer.compare(k, lo) >= 0 && Buffer.compare(k, hi) < 0;
    expect([indexKey("N", "U", "n", 5, LOW), indexKey("N", "U", "n", 5, HIGH), indexKey("N", "U", "n", 6, LOW)].map(within)).toEqual([
      true,
      true,
      false,
    ]);
    expect(() => parseItemKey(new Uint8Array([0x55, 0, 1, 2]))).toThrow("item key of 4 bytes is malformed");
  });

  test("ids at both ends of the byte range: label scans, index lookups and ranges, in id order", async () => {
    const { store: s } = await store();
    expect(s.read((db) => ids(db.nodesByLabel("U")))).toEqual([LOW, MID, HIGH]);
    expect(s.read((db) => ids(db.nodesByLabel("UX")))).toEqual(["0190b000-0000-7000-8000-000000000001"]);
    expect(s.read((db) => ids(db.nodesByIndex("U", "n", 5)))).toEqual([LOW, HIGH]);
    expect(s.read((db) => ids(db.nodesByIndex("U", "h", `h5-ff`)))).toEqual([HIGH]);
    const where = (op: "GT" | "GTE" | "LT" | "LTE", value: number) =>
      s.read((db) => ids(db.itemsWhereIndexed("N", "U", [{ field: "n", op, value }], () => true)));
    expect(where("GTE", 5)).toEqual([LOW, MID, HIGH]);
    expect(where("LTE", 5)).toEqual([LOW, HIGH]);
    expect(where("GT", 5)).toEqual([MID]);
    expect(where("LT", 7)).toEqual([LOW, HIGH]);
    expect(s.read((db) => ids(db.edgesByLabel("L")))).toEqual([E_LOW, E_HIGH]);
    expect(s.read((db) => ids(db.edgesByIndex("L", "w", 1)))).toEqual([E_LOW, E_HIGH]);
    expect(s.read((db) => db.nodeById("U", HIGH).n)).toBe(5);
    // Counts per type (GET /stats, metrics) are ranges of the same keys.
    expect(s.stats().records).toEqual([
      { kind: "N", type: "U", count: 3 },
      { kind: "N", type: "UX", count: 1 },
      { kind: "E", type: "L", count: 2 },
    ]);
    await s.close();
  });

  test("UNIQUE edge claims and UNIQUE INDEX claims hold binary ids", async () => {
    const { store: s } = await store();
    await expect(s.write((db) => db.addEdge("L", { w: 2 }, HIGH, LOW))).rejects.toMatchObject({ code: "UNIQUE_VIOLATION" });
    await expect(s.write((db) => db.addNode("U", { n: 1, h: "h5-ff" }))).rejects.toMatchObject({ code: "UNIQUE_VIOLATION" });
    // Dropping the edge frees its (from, to); updating the node frees its value.
    await s.write((db) => db.drop([db.edgeById("L", E_HIGH)]));
    await s.write((db) => db.updateNodes([db.nodeById("U", HIGH)], { h: "other" }));
    const again = await s.write((db) => [db.addEdge("L", { w: 2 }, HIGH, LOW).id, db.addNode("U", { n: 1, h: "h5-ff" }).id]);
    expect(s.read((db) => db.nodesByIndex("U", "h", "h5-ff").map((u) => u.id))).toEqual([again[1]]);
    await s.close();
  });

  test("an id that is not a lower-case UUID names nothing", async () => {
    const { store: s } = await store();
    for (const id of [HIGH.toUpperCase(), "zzzzzzzz-ffff-4fff-bfff-ffffffffffff", `${HIGH.slice(0, 35)}g`, "x".repeat(36)]) {
      expect(() => s.read((db) => db.nodeById("U", id))).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
      expect(() => s.read((db) => db.edgeById("L", id))).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
      expect(() => s.read((db) => db.itemOfKindById("N", id))).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
      await expect(s.write((db) => db.addEdge("L", { w: 3 }, id, LOW))).rejects.toMatchObject({ code: "NOT_FOUND" });
    }
    await s.close();
  });

  test("a malformed stored key is a verify finding", async () => {
    const { store: s, dir } = await store();
    const dbs = (s as unknown as { dbs: StoreDbs }).dbs;
    await dbs.env.transaction(() => {
      dbs.nodes.putSync(new Uint8Array([0x55, 0x00, 0x01]), { id: LOW, label: "U" });
      dbs.index.putSync(new Uint8Array([0x4e]), null);
    });
    await s.close();
    const result = await verifyDataDir(dir);
    expect(result.ok && result.report.disagreements).toEqual([
      { check: "record", key: `nodes ["550001"]`, message: "a malformed key (not a label, 0x00 and 16 id bytes)" },
      { check: "index", key: `index ["4e"]`, message: "a malformed key (not [kind, type, field, value], 0x00 and 16 id bytes)" },
    ]);
  });
});
