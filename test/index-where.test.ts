// WHERE served by an INDEX (QueryContext.itemsWhereIndexed, runtime/indexes/index-where.ts) returns
// exactly what the scan returns: a seeded property test over random data (numbers with -0, long
// and control-character strings, lone surrogates, Date-shaped strings, Dates, ids, booleans,
// absent fields, UNIQUE fields, edges and vectors) and random conjunctions of conditions, with
// and without RANGE bounds, in read and write transactions, after updates and drops.
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { GraphItem, PropValue } from "../core/items.js";
import type { IndexCondition, QueryContext } from "../core/query-context.js";
import type { GraphStore } from "../runtime/graph-store.js";
import { uuidv7 } from "../runtime/store/ids.js";
import { schemaOf } from "./support/compile-schema.js";
import { between, crashSeed } from "./support/crash-seed.js";
import { openTempStore } from "./support/store-fixtures.js";

const SCHEMA = schemaOf(`
N::Item { INDEX n: I64, INDEX f: F64, UNIQUE INDEX code: String, INDEX s: String, INDEX d: Date, INDEX ref: ID, INDEX flag: Boolean, UNIQUE INDEX rank: I32, plain: I64 }
E::Link { From: Item, To: Item, Properties: { INDEX w: F64, UNIQUE INDEX key: I64 } }
V::Doc { INDEX lang: String, INDEX size: U32 }
`);

const OPS: IndexCondition["op"][] = ["EQ", "GT", "GTE", "LT", "LTE"];
const IDS = Array.from({ length: 4 }, () => uuidv7());
const STRINGS = [
  "",
  "a",
  "ab",
  "b",
  "Z",
  "é",
  "😀",
  "\uffff",
  "a\ud800",
  "a\ufffd",
  "x\u0001y",
  "y".repeat(300),
  "y".repeat(256),
  "2024-01-01",
  "2024-01-01T00:00:00.000Z",
  "2024-01-01T01:00:00+01:00",
];
const DATES = ["2024-01-01T00:00:00.000Z", "2024-06-01T12:30:00.000Z", "1999-12-31T23:59:59.999Z", "2030-01-01T00:00:00.000Z"];
const NUMBERS = [-5, -1.5, -0, 0, 0.25, 1, 2, 3, 1e9, -1e9];

type Field = "n" | "f" | "s" | "d" | "ref" | "flag" | "rank" | "code";
const FIELDS: Field[] = ["n", "f", "s", "d", "ref", "flag", "rank", "code"];

function pick<T>(random: () => number, xs: readonly T[]): T {
  return xs[between(random, 0, xs.length)]!;
}

/** A value stored in `field` (or undefined: absent). */
function storedValue(random: () => number, field: Field): PropValue | undefined {
  if (random() < 0.15) return undefined;
  switch (field) {
    case "n":
      return between(random, -4, 5);
    case "f":
      return pick(random, NUMBERS);
    case "s":
      return pick(random, STRINGS);
    case "d":
      return pick(random, DATES);
    case "ref":
      return pick(random, IDS);
    case "flag":
      return random() < 0.5;
    default:
      return undefined; // UNIQUE fields are set by the caller
  }
}

/** A value a request might compare `field` with: stored-like values, other notations, nulls, other kinds. */
function queryValue(random: () => number, field: Field): PropValue {
  const r = random();
  if (r < 0.05) return null;
  if (r < 0.1) return pick(random, [1, "1", true, "2024-01-01", "2024-01-01T01:00:00+01:00", IDS[0]!.toUpperCase()]);
  switch (field) {
    case "n":
    case "rank":
      return random() < 0.8 ? between(random, -5, 6) : pick(random, NUMBERS);
    case "f":
      return pick(random, NUMBERS);
    case "s":
    case "code":
      return pick(random, [...STRINGS, "c0", "c7", "c", "y"]);
    case "d":
      return pick(random, [...DATES, "2024-01-01", "2024-06-01T14:30:00+02:00", "2020-01-01T00:00:00.000Z"]);
    case "ref":
      return pick(random, [...IDS, "0", "g", IDS[1]!.toUpperCase()]);
    case "flag":
      return random() < 0.5;
  }
}

function itemProps(random: () => number, i: number): Record<string, PropValue> {
  const props: Record<string, PropValue> = {};
  for (const f of FIELDS) {
    const v = storedValue(random, f);
    if (v !== undefined) props[f] = v;
  }
  if (random() < 0.8) props.code = random() < 0.3 ? "y".repeat(260) + String(i) : `c${i}`;
  if (random() < 0.8) props.rank = i - 20;
  props.plain = between(random, 0, 3);
  return props;
}

function randomConditions(random: () => number, fields: readonly string[], value: (f: string) => PropValue): IndexCondition[] {
  const n = between(random, 1, 4);
  return Array.from({ length: n }, () => {
    const field = pick(random, fields);
    return { field, op: pick(random, OPS), value: value(field) };
  });
}

/** The WHERE the conditions are conjuncts of, sometimes with one more on an unindexed field. */
function predicateOf(db: QueryContext, conditions: readonly IndexCondition[], extra: number | null): (item: GraphItem) => boolean {
  return (item) =>
    conditions.every((c) => db.compare(c.op, db.prop(item, c.field), c.value)) &&
    (extra === null || db.compare("NEQ", db.prop(item, "plain"), extra));
}

function randomBounds(random: () => number): [number, number | undefined] {
  if (random() < 0.6) return [0, undefined];
  const start = between(random, 0, 5);
  return [start, start + between(random, 0, 8)];
}

let store: GraphStore;
let cleanup: () => Promise<void>;
beforeEach(() => {
  ({ store, cleanup } = openTempStore(SCHEMA));
});
afterEach(async () => {
  await cleanup();
});

describe("WHERE through an index equals the scan", () => {
  test("nodes: random data, random conjunctions, read and write transactions, after updates and drops", async () => {
    const { random } = crashSeed("test/index-where.test.ts");
    const ids = await store.write((db) => Array.from({ length: 160 }, (_, i) => db.addNode("Item", itemProps(random, i)).id));
    await store.write((db) => {
      for (let i = 0; i < 30; i++) {
        const item = db.nodeById("Item", pick(random, ids));
        db.updateNodes([item], { n: between(random, -4, 5), s: pick(random, STRINGS), f: pick(random, NUMBERS) });
      }
      db.drop(ids.slice(0, 10).map((id) => db.nodeById("Item", id)));
    });
    // -0 and lone surrogates are stored in one canonical form, so every index entry agrees.
    expect(store.verify().disagreements).toEqual([]);
    const check = (db: QueryContext): number => {
      let served = 0;
      for (let round = 0; round < 300; round++) {
        const conditions = randomConditions(random, FIELDS, (f) => queryValue(random, f as Field));
        const predicate = predicateOf(db, conditions, random() < 0.3 ? between(random, 0, 3) : null);
        const [start, end] = randomBounds(random);
        const scanned = db.nodesWhere("Item", predicate, start, end);
        const indexed = db.itemsWhereIndexed("N", "Item", conditions, predicate, start, end);
        expect(
          indexed.map((x) => x.id),
          JSON.stringify({ round, start, end }),
        ).toEqual(scanned.map((x) => x.id));
        if (scanned.length > 0) served++;
      }
      return served;
    };
    // Enough rounds match something that the comparison says more than "both empty".
    expect(store.read(check)).toBeGreaterThan(60);
    expect(await store.write(check)).toBeGreaterThan(60);
  });

  test("edges and vectors", async () => {
    const { random } = crashSeed("test/index-where.test.ts");
    await store.write((db) => {
      const items = Array.from({ length: 12 }, (_, i) => db.addNode("Item", { rank: i }).id);
      for (let i = 0; i < 120; i++) {
        const props: Record<string, PropValue> = { key: i - 60 };
        if (random() < 0.85) props.w = pick(random, NUMBERS);
        db.addEdge("Link", props, pick(random, items), pick(random, items));
      }
      for (let i = 0; i < 80; i++) {
        const props: Record<string, PropValue> = { size: between(random, 0, 6) };
        if (random() < 0.85) props.lang = pick(random, ["en", "nb", "2024-01-01", "y".repeat(300)]);
        db.addVector("Doc", [random(), random()], props);
      }
    });
    store.read((db) => {
      const edgeValue = (f: string): PropValue => (f === "w" ? pick(random, NUMBERS) : between(random, -70, 70));
      const docValue = (f: string): PropValue =>
        f === "size" ? between(random, -1, 7) : pick(random, ["en", "nb", "de", "2024-01-01", null]);
      for (let round = 0; round < 200; round++) {
        const conditions = randomConditions(random, ["w", "key"], edgeValue);
        const predicate = predicateOf(db, conditions, null);
        const [start, end] = randomBounds(random);
        const scanned = db.range(db.filter(db.edgesByLabel("Link"), predicate), start, end ?? Number.MAX_SAFE_INTEGER);
        expect(db.itemsWhereIndexed("E", "Link", conditions, predicate, start, end).map((x) => x.id)).toEqual(scanned.map((x) => x.id));
        const docConditions = randomConditions(random, ["lang", "size"], docValue);
        const docPredicate = predicateOf(db, docConditions, null);
        expect(db.itemsWhereIndexed("N", "Doc", docConditions, docPredicate, start, end).map((x) => x.id)).toEqual(
          db.nodesWhere("Doc", docPredicate, start, end).map((x) => x.id),
        );
      }
    });
  });

  test("a condition no index can serve for its value scans; bad bounds are the scan's 400", async () => {
    await store.write((db) => {
      db.addNode("Item", { s: "2024-01-01", plain: 1 });
      db.addNode("Item", { s: "2024-01-01T00:00:00.000Z", plain: 2 });
    });
    store.read((db) => {
      const c: IndexCondition[] = [{ field: "s", op: "EQ", value: "2024-01-01T00:00:00.000Z" }];
      // Two notations of one instant are EQ: the index (exact keys) would find one of them.
      const both = db.itemsWhereIndexed("N", "Item", c, (x) => db.compare("EQ", db.prop(x, "s"), c[0]!.value));
      expect(both.map((x) => x.plain)).toEqual([1, 2]);
      expect(() => db.itemsWhereIndexed("N", "Item", c, () => true, 3, 1)).toThrow("RANGE end (1) must not be less than start (3)");
    });
  });
});
