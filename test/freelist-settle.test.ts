// The settling commits after a bulk operation (runtime/store/freelist-settle.ts): none on a store
// whose free-page list has no multi-page record, some after edges written over several
// transactions, and they change no data (the store verifies clean, the meta key is gone, every
// count is as before). Their effect on the writes after them is measured in bench/post-import.ts.
import { afterEach, expect, test } from "vitest";
import { settleCommitsNeeded } from "../runtime/store/freelist-settle.js";
import { openTempStore } from "./support/store-fixtures.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

test("a fresh store needs no settling", async () => {
  const { store, cleanup } = openTempStore();
  cleanups.push(cleanup);
  await store.write((db) => db.addNode("City", { name: "Lyon" }));
  expect(store.settleFreeList()).toBe(0);
});

test("after edges written in several transactions, settling runs commits and changes nothing", async () => {
  // Folding every pending incoming entry at once (foldSlice 0, as writes did before folds came in
  // slices) frees thousands of pages in one commit: the free-page list's multi-page records.
  const { store, cleanup } = openTempStore(undefined, { foldSlice: 0 });
  cleanups.push(cleanup);
  const ids = await store.write((db) => Array.from({ length: 6000 }, (_, i) => db.addNode("User", { name: `u${i}` }).id));
  for (let batch = 0; batch < 4; batch++) {
    await store.write((db) => {
      for (let i = 0; i < ids.length; i++) db.addEdge("Follows", {}, ids[i]!, ids[(i * 7 + batch * 13 + 1) % ids.length]!);
    });
  }
  const env = (store as unknown as { dbs: { env: Parameters<typeof settleCommitsNeeded>[0] } }).dbs.env;
  const needed = settleCommitsNeeded(env);
  expect(needed).toBeGreaterThan(0);
  const counts = () => store.read((db) => [db.count(db.nodesByLabel("User")), db.count(db.edgesByLabel("Follows"))]);
  const before = counts();
  expect(store.settleFreeList()).toBe(needed);
  expect(counts()).toEqual(before);
  expect(before).toEqual([6000, 24000]);
  const meta = (store as unknown as { dbs: { meta: { get(key: string): unknown } } }).dbs.meta;
  expect(meta.get("freelist_settle")).toBeUndefined();
  expect(store.verify()).toMatchObject({ disagreements: [], skipped: [] });
});
