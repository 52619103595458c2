// QueryContext.nodesWhere: `N<T>::WHERE(p)[::RANGE(a, b)]` in one pass over the label. It must
// return exactly range(filter(nodesByLabel)), stop evaluating the predicate at the end-th match,
// and reject the bounds RANGE rejects.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seededRandom } from "../bench/random.js";
import { StrandError } from "../core/errors.js";
import type { NodeItem } from "../core/items.js";
import type { GraphStore } from "../runtime/graph-store.js";
import { openTempStore } from "./support/store-fixtures.js";

const USERS = 300;
const adult = (item: NodeItem): boolean => (item.age as number) >= 18;

describe("nodesWhere", () => {
  let store: GraphStore;
  let cleanup: () => Promise<void>;
  let ages: number[];

  beforeAll(async () => {
    ({ store, cleanup } = openTempStore());
    const random = seededRandom(11);
    ages = Array.from({ length: USERS }, () => Math.floor(random() * 40));
    await store.write((db) => {
      for (let i = 0; i < ages.length; i++) db.addNode("User", { name: `u${i}`, age: ages[i]! });
      db.addNode("Post", { title: "not a user", score: 1 });
    });
  });

  afterAll(async () => {
    await cleanup();
  });

  const names = (items: readonly NodeItem[]): string[] => items.map((item) => item.name as string);
  const adultNames = (): string[] => ages.flatMap((age, i) => (age >= 18 ? [`u${i}`] : []));

  test("without bounds: every match in id order, the records themselves", () => {
    const result = store.read((db) => db.nodesWhere("User", adult));
    expect(names(result)).toEqual(adultNames());
    expect(result).toEqual(store.read((db) => db.filter(db.nodesByLabel("User"), adult)));
  });

  test("with bounds: the same as RANGE over the filtered list", () => {
    const all = adultNames();
    expect(all.length).toBeGreaterThan(100);
    for (const [start, end] of [
      [0, 10],
      [5, 17],
      [0, all.length],
      [all.length - 3, all.length + 50],
      [all.length + 1, all.length + 9],
      [7, 7],
    ] as const) {
      expect(names(store.read((db) => db.nodesWhere("User", adult, start, end)))).toEqual(all.slice(start, end));
    }
  });

  test("the predicate runs up to the end-th match and no further", () => {
    let calls = 0;
    const counted = (item: NodeItem): boolean => {
      calls++;
      return adult(item);
    };
    const result = store.read((db) => db.nodesWhere("User", counted, 2, 5));
    expect(names(result)).toEqual(adultNames().slice(2, 5));
    const fifthMatch = ages.findIndex((_, i) => ages.slice(0, i + 1).filter((a) => a >= 18).length === 5);
    expect(calls).toBe(fifthMatch + 1);
    calls = 0;
    store.read((db) => db.nodesWhere("User", counted, 3, 3));
    expect(calls).toBe(0);
  });

  test("a write context sees the query's own writes", async () => {
    const found = await store.write((db) => {
      db.addNode("User", { name: "late", age: 99 });
      return names(db.nodesWhere("User", (item) => item.age === 99));
    });
    expect(found).toEqual(["late"]);
  });

  test("bounds RANGE rejects are INVALID_VALUE with RANGE's messages", () => {
    const attempt = (start: number, end?: number): StrandError => {
      try {
        store.read((db) => db.nodesWhere("User", adult, start, end));
      } catch (error) {
        if (error instanceof StrandError) return error;
        throw error;
      }
      throw new Error("expected a StrandError");
    };
    expect([attempt(-1).code, attempt(-1).message]).toEqual(["INVALID_VALUE", "RANGE start must be an integer >= 0, got -1"]);
    expect(attempt(0, 1.5).message).toBe("RANGE end must be an integer >= 0, got 1.5");
    expect(attempt(4, 2).message).toBe("RANGE end (2) must not be less than start (4)");
  });

  test("an unknown label is a bug in the caller, not a user error", () => {
    expect(() => store.read((db) => db.nodesWhere("Nope", adult))).toThrow("unknown node type 'Nope'");
  });
});
