// edge_ends blocks (runtime/records/edge-ends.ts, written by runtime/records/edge-ends-writes.ts):
// edges added in any order and removed keep every block sorted, keyed by its first edge and
// within 16 entries, and every edge is found by its id; appends in id order fill the blocks.
import fs from "node:fs";
import path from "node:path";
import { open, type RootDatabase } from "lmdb";
import { afterAll, describe, expect, test } from "vitest";
import {
  bareEdgeCount,
  bareEdgeEnds,
  bareEdgeFrom,
  ENDS_BLOCK,
  ENDS_ENTRY,
  type EdgeEndsDb,
  parseEdgeEndsKey,
} from "../runtime/records/edge-ends.js";
import { readIdBytes } from "../runtime/store/id-bytes.js";
import { EdgeEndsWriter } from "../runtime/records/edge-ends-writes.js";
import { uuidWordsAt } from "../runtime/store/id-words.js";
import { rng } from "./support/vector-fixtures.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const work = tempDir("strand-edge-ends-");
afterAll(() => removeDir(work));

let envs = 0;
function freshDb(): { env: RootDatabase; db: EdgeEndsDb } {
  const dir = path.join(work, `env-${envs++}`);
  fs.mkdirSync(dir);
  const env = open({ path: dir, noSubdir: false, maxDbs: 4, pageSize: 8192 });
  return { env, db: env.openDB<Uint8Array, Uint8Array>({ name: "edge_ends", encoding: "binary", keyEncoding: "binary" }) };
}

/** A v7-shaped id from a number (sorts as the number does). */
const id = (n: number): string => {
  const hex = n.toString(16).padStart(20, "0");
  return `0190${hex.slice(0, 4)}-${hex.slice(4, 8)}-7${hex.slice(8, 11)}-8${hex.slice(11, 14)}-${hex.slice(14, 20)}000000`;
};

/** The words (loaded-ids.ts uuidWords) of an entry: the edge id's, then the from node's. */
function entryWords(edge: string, from: string): Int32Array {
  const w = new Int32Array(8);
  expect(uuidWordsAt(edge, 0, w, 0) && uuidWordsAt(from, 0, w, 4)).toBe(true);
  return w;
}

/** Every block as [label, first id, ids], checking the layout on the way. */
function blocks(db: EdgeEndsDb): { label: string; ids: string[] }[] {
  const out: { label: string; ids: string[] }[] = [];
  for (const { key, value } of db.getRange({})) {
    const { label, id: first } = parseEdgeEndsKey(key);
    expect(value.length % ENDS_ENTRY).toBe(0);
    const ids: string[] = [];
    for (let at = 0; at < value.length; at += ENDS_ENTRY) ids.push(readIdBytes(value, at));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.length).toBeLessThanOrEqual(ENDS_BLOCK);
    expect(ids[0]).toBe(first);
    expect([...ids].sort()).toEqual(ids);
    out.push({ label, ids });
  }
  return out;
}

describe("edge_ends blocks", () => {
  test("random adds, re-adds and removes in any order match a plain map, across labels", () => {
    const { env, db } = freshDb();
    const random = rng(5);
    const model = new Map<string, Map<string, string>>([
      ["A", new Map()],
      ["Bb", new Map()],
    ]);
    for (let round = 0; round < 12; round++) {
      env.transactionSync(() => {
        const writer = new EdgeEndsWriter(db);
        for (let i = 0; i < 150; i++) {
          const label = random() < 0.5 ? "A" : "Bb";
          const edges = model.get(label)!;
          const e = id(Math.floor(random() * 2000));
          if (random() < 0.3 && edges.size > 0) {
            const victim = [...edges.keys()][Math.floor(random() * edges.size)]!;
            expect(writer.remove(label, victim)).toBe(true);
            edges.delete(victim);
            expect(writer.remove(label, victim)).toBe(false);
          } else {
            const from = id(100_000 + Math.floor(random() * 1000));
            // Half through the words a bulk load passes (in place at the held block's end, else as add).
            if (random() < 0.5) writer.add(label, e, from);
            else writer.addEntryWords(label, entryWords(e, from), 0);
            edges.set(e, from);
          }
          // A read inside the transaction, after the flush its reader makes, sees every change so far.
          if (random() < 0.05) {
            writer.flush();
            for (const [e, from] of edges) expect(bareEdgeFrom(db, label, e, undefined)).toBe(from);
          }
        }
        writer.flush();
      });
    }
    const all = blocks(db);
    for (const [label, edges] of model) {
      const want = [...edges.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([e, from]) => ({ id: e, from }));
      expect([...bareEdgeEnds(db, label, undefined)]).toEqual(want);
      expect(bareEdgeCount(db, label, undefined)).toBe(edges.size);
      for (const { id: e, from } of want) expect(bareEdgeFrom(db, label, e, undefined)).toBe(from);
      // The blocks of one label do not overlap.
      const ids = all.filter((b) => b.label === label).flatMap((b) => b.ids);
      expect(ids).toEqual(want.map((w) => w.id));
    }
    expect(bareEdgeFrom(db, "A", id(999_999), undefined)).toBeUndefined();
    expect(bareEdgeFrom(db, "A", "not an id", undefined)).toBeUndefined();
    expect(bareEdgeFrom(db, "C", id(1), undefined)).toBeUndefined();
    void env.close();
  });

  test.each(["add", "addEntryWords"])("appends in id order (%s) fill every block but the last: 1,000 edges in 63 blocks", (how) => {
    const { env, db } = freshDb();
    env.transactionSync(() => {
      const writer = new EdgeEndsWriter(db);
      for (let i = 0; i < 1000; i++) {
        if (how === "add") writer.add("Link", id(i), id(5000 + i));
        else writer.addEntryWords("Link", entryWords(id(i), id(5000 + i)), 0);
      }
      writer.flush();
    });
    expect(blocks(db).map((b) => b.ids.length)).toEqual([...Array(62).fill(16), 8]);
    expect([...bareEdgeEnds(db, "Link", undefined)].slice(998)).toEqual([
      { id: id(998), from: id(5998) },
      { id: id(999), from: id(5999) },
    ]);
    void env.close();
  });

  test("appended edges are put once per block: full blocks at once, the growing one at flush", () => {
    const { env, db } = freshDb();
    const puts: number[] = [];
    const counting = new Proxy(db, {
      get(target, prop) {
        const member: unknown = Reflect.get(target, prop, target);
        if (prop !== "putSync" || typeof member !== "function") return typeof member === "function" ? member.bind(target) : member;
        return (key: Uint8Array, value: Uint8Array, ...rest: unknown[]) => {
          puts.push(value.length / 32);
          return member.call(target, key, value, ...rest);
        };
      },
    });
    env.transactionSync(() => {
      const writer = new EdgeEndsWriter(counting);
      for (let i = 0; i < 40; i++) writer.add("Link", id(i), id(5000 + i));
      expect(puts).toEqual([16, 16]);
      expect(blocks(db).map((b) => b.ids.length)).toEqual([16, 16]);
      writer.flush();
      writer.flush(); // nothing unwritten: no put
      expect(puts).toEqual([16, 16, 8]);
      // The held block keeps growing after a flush.
      writer.add("Link", id(40), id(5040));
      writer.flush();
      expect(puts).toEqual([16, 16, 8, 9]);
    });
    expect(blocks(db).map((b) => b.ids.length)).toEqual([16, 16, 9]);
    void env.close();
  });

  test("the block that empties goes, and one whose first edge goes is keyed by the next", () => {
    const { env, db } = freshDb();
    env.transactionSync(() => {
      const writer = new EdgeEndsWriter(db);
      for (let i = 0; i < 20; i++) writer.add("L", id(i), id(100));
      for (let i = 16; i < 20; i++) writer.remove("L", id(i));
      writer.remove("L", id(0));
      writer.flush();
    });
    expect(blocks(db).map((b) => b.ids)).toEqual([Array.from({ length: 15 }, (_, i) => id(i + 1))]);
    void env.close();
  });
});
