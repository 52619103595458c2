// The bulk loader's table of loaded ids (runtime/load/loaded-ids.ts): exact membership with the
// tag each id was added with, either case, through growth; UUID parsing agrees with isUuid.
import { expect, test } from "vitest";
import { isUuid, uuidv7 } from "../runtime/store/ids.js";
import { LoadedIds } from "../runtime/load/loaded-ids.js";
import { uuidWords } from "../runtime/store/id-words.js";

test("uuidWords reads exactly the strings isUuid accepts, into the UUID's four words", () => {
  const words = new Int32Array(4);
  expect(uuidWords("0190a5c1-0000-7000-8000-00000000000a", words)).toBe(true);
  expect([...words].map((w) => (w >>> 0).toString(16).padStart(8, "0"))).toEqual(["0190a5c1", "00007000", "80000000", "0000000a"]);
  expect(uuidWords("0190A5C1-FFFF-7000-8000-00000000000A", words)).toBe(true);
  expect([...words].map((w) => (w >>> 0).toString(16))).toEqual(["190a5c1", "ffff7000", "80000000", "a"]);
  const samples = [
    "",
    "42",
    "0190a5c1-0000-7000-8000-00000000000",
    "0190a5c1-0000-7000-8000-00000000000g",
    "0190a5c1-0000-7000-8000_00000000000a",
    "0190a5c100000-7000-8000-00000000000a",
    "0190a5c1-0000-7000-8000-00000000000a ",
    "0190a5c1-0000-7000-8000-0000000000\u00e9a",
    "zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
    uuidv7(),
    uuidv7().toUpperCase(),
  ];
  for (const s of samples) expect([s, uuidWords(s, words)]).toEqual([s, isUuid(s)]);
});

test("LoadedIds: every id added is found with its tag, in either case, and no other id is", () => {
  const table = new LoadedIds();
  const ids = Array.from({ length: 100_000 }, () => uuidv7());
  for (let i = 0; i < ids.length; i++) table.add(ids[i]!, 1 + (i % 3));
  table.add(ids[0]!, 3); // an id already held keeps its tag
  expect(table.size).toBe(ids.length);
  expect(table.complete).toBe(true);
  expect(ids.every((id, i) => table.get(id) === 1 + (i % 3))).toBe(true);
  expect(table.get(ids[12345]!.toUpperCase())).toBe(1 + (12345 % 3));
  const others = Array.from({ length: 10_000 }, () => uuidv7());
  expect(others.filter((id) => table.get(id) !== 0)).toEqual([]);
  // Differs from a held id in one word only.
  expect(table.get(`${ids[7]!.slice(0, 35)}${ids[7]!.endsWith("0") ? "1" : "0"}`)).toBe(0);
  expect(table.get("not a uuid")).toBe(-1);
});

test("LoadedIds past its limit: ids beyond it are left out and the table says it is incomplete", () => {
  const table = new LoadedIds(3);
  const ids = Array.from({ length: 5 }, () => uuidv7());
  for (const id of ids) table.add(id, 1);
  table.add(ids[0]!, 2);
  expect([table.size, table.complete]).toEqual([3, false]);
  expect(ids.map((id) => table.get(id))).toEqual([1, 1, 1, 0, 0]);
});
