// New ids sort after every id a store holds, even when the clock is behind the one that wrote
// them (runtime/records/newest-id.ts, keepIdsAfter in ids.ts): the open seeds the id generator with
// the newest stored UUID v7, of node, edge-record and bare-edge labels alike. One more than a day
// ahead of the clock is not trusted. (The generator is per process: the tests run in this order.)
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { silentProgress } from "../core/progress.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { uuidv7Time } from "../runtime/store/ids.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const schema = schemaOf(`
N::User { name: String }
E::Knows { From: User, To: User }
E::Rated { From: User, To: User, Properties: { stars: I64 } }
`);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

/** A UUID v7 of the given time, as another process would have written it. */
function v7At(ms: number, tail: number): string {
  const h = ms.toString(16).padStart(12, "0");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7000-8000-${tail.toString(16).padStart(12, "0")}`;
}

/** A store holding the given records (ids kept), closed, then opened again. */
async function reopenedWith(records: object[]): Promise<GraphStore> {
  const dir = tempDir("strand-newest-id-");
  dirs.push(dir);
  const file = path.join(dir, "in.jsonl");
  fs.writeFileSync(file, records.map((r) => JSON.stringify(r)).join("\n"));
  const first = GraphStore.open({ path: path.join(dir, "data"), schema });
  await importFiles(first, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  await first.close();
  return GraphStore.open({ path: path.join(dir, "data"), schema });
}

test("an id more than a day ahead of the clock does not hold new ids back", async () => {
  const far = v7At(Date.now() + 3 * 24 * 3600 * 1000, 1);
  const store = await reopenedWith([{ kind: "N", label: "User", id: far, name: "far" }]);
  const made = await store.write((db) => db.addNode("User", { name: "new" }));
  expect(made.id < far).toBe(true);
  expect(Math.abs(uuidv7Time(made.id) - Date.now())).toBeLessThan(60_000);
  await store.close();
});

test.each([
  ["a node", "node"],
  ["an edge without fields (edge_ends)", "bare"],
  ["an edge record", "record"],
] as const)("new ids sort after %s written by a clock an hour ahead", async (_name, newest) => {
  const ahead = Date.now() + 3600 * 1000;
  const a = v7At(ahead - 10, 1);
  const b = v7At(ahead - 9, 2);
  const records: object[] = [
    { kind: "N", label: "User", id: a, name: "a" },
    { kind: "N", label: "User", id: b, name: "b" },
  ];
  const last = v7At(ahead, 3);
  if (newest === "node") records.push({ kind: "N", label: "User", id: last, name: "c" });
  if (newest === "bare") records.push({ kind: "E", label: "Knows", id: last, from: a, to: b });
  if (newest === "record") records.push({ kind: "E", label: "Rated", id: last, from: a, to: b, stars: 5 });
  const store = await reopenedWith(records);
  const [user, edge] = await store.write((db) => {
    const u = db.addNode("User", { name: "new" });
    return [u, db.addEdge("Knows", {}, a, u.id)] as const;
  });
  expect(user.id > last).toBe(true);
  expect(edge.id > user.id).toBe(true);
  expect(uuidv7Time(user.id)).toBeGreaterThanOrEqual(ahead);
  // Label ranges list them in creation order.
  expect(store.read((db) => db.nodesByLabel("User").map((u) => u.name))).toEqual(
    newest === "node" ? ["a", "b", "c", "new"] : ["a", "b", "new"],
  );
  expect(store.verify().disagreements).toEqual([]);
  await store.close();
});

test("a promoted replica's new ids sort after the ones it applied from its leader (keepNewIdsAfterStored)", async () => {
  // Records loaded into an open store stand for the entries a replica applies: ids another
  // clock made (two hours ahead here, past every id the tests above made), which do not move
  // this process's generator.
  const dir = tempDir("strand-newest-id-");
  dirs.push(dir);
  const ahead = Date.now() + 2 * 3600 * 1000;
  const applied = v7At(ahead, 9);
  const file = path.join(dir, "in.jsonl");
  fs.writeFileSync(file, JSON.stringify({ kind: "N", label: "User", id: applied, name: "from the old leader" }));
  const store = GraphStore.open({ path: path.join(dir, "data"), schema });
  await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  const before = await store.write((db) => db.addNode("User", { name: "before" }));
  expect(before.id < applied).toBe(true);
  store.keepNewIdsAfterStored(); // what a node does when it takes the lead (server/node/served-node.ts)
  const after = await store.write((db) => db.addNode("User", { name: "after" }));
  expect(after.id > applied).toBe(true);
  expect(uuidv7Time(after.id)).toBeGreaterThanOrEqual(ahead);
  await store.close();
});
