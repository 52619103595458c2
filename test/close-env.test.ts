// lmdb-js keeps every database it opened in its module-level `allDbs` map, closed or not; a
// server closing idle tenants' stores would keep them all (runtime/store/close-env.ts). A closed
// GraphStore leaves none of its databases there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as lmdb from "lmdb";
import { expect, it } from "vitest";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";

const schema: SchemaDescriptor = {
  nodes: [{ name: "Item", fields: [{ name: "name", type: { kind: "scalar", name: "String" }, index: "none", default: null }] }],
  edges: [],
  vectors: [],
};

it("forgets a closed store's databases", async () => {
  const all = (lmdb as unknown as { allDbs: Map<string, unknown> }).allDbs;
  const root = mkdtempSync(join(tmpdir(), "strand-close-env-"));
  try {
    // The map's keys are the store folder's name, alone or with "-<database>".
    const name = `store-${process.pid}-${Date.now()}`;
    const mine = (): string[] => [...all.keys()].filter((k) => k === name || k.startsWith(`${name}-`));
    const store = GraphStore.open({ path: join(root, name), schema });
    await store.write((db) => db.addNode("Item", { name: "x" }));
    expect(mine().length).toBeGreaterThan(10);
    await store.close();
    expect(mine()).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
