// A bulk load's adjacency buffer (runtime/adjacency/bulk-lists.ts) against the per-request one
// (adjacency/append-buffer.ts) given the same entries: the databases come out identical, byte for byte,
// whether lists are new (sorting before or after every stored key) or extend stored ones, with
// labels one a prefix of another, past its first page of entries and its first table size, and
// when the lists are placed in many small batches.
import path from "node:path";
import { open, type Database, type RootDatabase } from "lmdb";
import { afterEach, beforeEach, expect, test } from "vitest";
import { seededRandom } from "../bench/random.js";
import { parseListKey } from "../runtime/adjacency/lists.js";
import { AdjacencyBuffer } from "../runtime/adjacency/append-buffer.js";
import { BulkAdjacency } from "../runtime/adjacency/bulk-lists.js";
import { uuidWordsAt } from "../runtime/store/id-words.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

type Dbs = {
  out: Database<Uint8Array, Uint8Array>;
  in: Database<Uint8Array, Uint8Array>;
  inPending: Database<Uint8Array, Uint8Array>;
};

let dir = "";
let env: RootDatabase;
beforeEach(() => {
  dir = tempDir("strand-bulk-adjacency-");
  env = open({ path: path.join(dir, "data"), maxDbs: 16 });
});
afterEach(async () => {
  await env.close();
  removeDir(dir);
});

function dbsNamed(name: string): Dbs {
  const binary = { encoding: "binary", keyEncoding: "binary" } as const;
  return {
    out: env.openDB<Uint8Array, Uint8Array>({ name: `${name}_out`, ...binary }),
    in: env.openDB<Uint8Array, Uint8Array>({ name: `${name}_in`, ...binary }),
    // Not written: both buffers under test write the in lists directly (no deferral).
    inPending: env.openDB<Uint8Array, Uint8Array>({ name: `${name}_in_pending`, ...binary }),
  };
}

function dump(dbs: Dbs): Record<string, string>[] {
  return [dbs.out, dbs.in].map((db) => {
    const all: Record<string, string> = {};
    for (const { key, value } of db.getRange({})) all[Buffer.from(key).toString("hex")] = Buffer.from(value).toString("hex");
    return all;
  });
}

function uuid(random: () => number, lead?: string): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join("");
  const h = lead === undefined ? hex : lead + hex.slice(lead.length);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

interface Entry {
  direction: "out" | "in";
  node: string;
  label: string;
  edge: string;
  other: string;
}

function entries(random: () => number, nodes: readonly string[], count: number, hubs: number): Entry[] {
  const labels = ["L", "LL", "Lb"];
  return Array.from({ length: count }, () => ({
    direction: random() < 0.5 ? "out" : "in",
    node: nodes[random() < 0.3 ? Math.floor(random() * hubs) : Math.floor(random() * nodes.length)]!,
    label: labels[Math.floor(random() * labels.length)]!,
    edge: uuid(random),
    other: uuid(random),
  }));
}

function writeBuffered(dbs: Dbs, list: readonly Entry[]): void {
  const buffer = new AdjacencyBuffer();
  for (const e of list) buffer.add(e.direction, e.node, e.label, e.edge, e.other);
  env.transactionSync(() => buffer.flush(dbs, false));
}

function writeBulk(dbs: Dbs, list: readonly Entry[], batchBytes?: number): void {
  const bulk = new BulkAdjacency(batchBytes);
  const w = new Int32Array(12);
  for (const e of list) {
    uuidWordsAt(e.node, 0, w, 0);
    uuidWordsAt(e.edge, 0, w, 4);
    uuidWordsAt(e.other, 0, w, 8);
    bulk.add(bulk.group(e.direction, e.label), w, 0, 4, 8);
  }
  expect(bulk.size).toBe(list.length);
  env.transactionSync(() => bulk.flush(dbs));
  expect(bulk.size).toBe(0);
}

test("the same entries leave the same lists as the per-request buffer: new lists, stored lists extended, many batches", () => {
  const random = seededRandom(3);
  // Stored nodes in the middle of the key space; new ones before and after them, and stored ones again.
  const stored = Array.from({ length: 40 }, () => uuid(random, "8"));
  const before = Array.from({ length: 300 }, () => uuid(random, "1"));
  const after = Array.from({ length: 1200 }, () => uuid(random, "e"));
  const first = entries(random, stored, 900, 3);
  // Past one page (65,536 entries) and past the list table's first size (1,024 lists).
  const second = entries(random, [...stored.slice(0, 20), ...before, ...after], 70_000, 5);

  const expected = dbsNamed("expected");
  writeBuffered(expected, first);
  const afterFirst = dump(expected);
  writeBuffered(expected, second);
  const afterSecond = dump(expected);
  expect(Object.keys(afterSecond[0]!).length).toBeGreaterThan(3000);
  // Lists far past one chunk are part of the test.
  const chunks = Object.keys(afterSecond[0]!).filter((key) => parseListKey(Buffer.from(key, "hex")).length === 3);
  expect(chunks.length).toBeGreaterThan(10);

  for (const [name, batchBytes] of [
    ["one-batch", undefined],
    ["small-batches", 4096],
  ] as const) {
    const bulk = dbsNamed(name);
    writeBulk(bulk, first, batchBytes);
    expect(dump(bulk)).toEqual(afterFirst);
    writeBulk(bulk, second, batchBytes);
    expect(dump(bulk)).toEqual(afterSecond);
  }
});
