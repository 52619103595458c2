// A count over adjacency takes the length of a list the read cache holds (runtime/query/context.ts
// countAdjacent), else reads the list's tail. Whatever the cache holds, the count equals the
// length of the traversal, across writes that add and drop edges at cached lists, in and out
// (the incoming side through the pending log, adjacency/pending-in.ts): seeded random writes,
// checked after each.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import type { NodeItem } from "../core/items.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { Random } from "./support/memory.js";

const schema: SchemaDescriptor = {
  nodes: [{ name: "P", fields: [] }],
  edges: [{ name: "L", from: "P", to: "P", unique: false, fields: [] }],
  vectors: [],
};

it("counts what the traversal returns, with lists cached and changed by writes", async () => {
  const dir = mkdtempSync(join(tmpdir(), "strand-count-cached-"));
  const store = GraphStore.open({ path: dir, schema });
  try {
    const random = new Random(7);
    const nodes: NodeItem[] = await store.write((db) => Array.from({ length: 30 }, () => db.addNode("P", {})));
    for (let round = 0; round < 60; round++) {
      await store.write((db) => {
        for (let i = 0; i < 5; i++) db.addEdge("L", {}, random.pick(nodes).id, random.pick(nodes).id);
        if (round % 3 === 2) {
          const some = db.outE([random.pick(nodes)], "L");
          if (some.length > 0) db.drop([some[0]!]);
        }
      });
      const start = [random.pick(nodes)];
      store.read((db) => {
        // Read the traversals first (they fill the cache), then count, then count again cold for another start.
        for (const [a, b] of [
          ["out", "out"],
          ["in", "out"],
          ["out", "in"],
          ["in", "in"],
        ] as const) {
          const first = a === "out" ? db.out(start, "L") : db.in(start, "L");
          const second = b === "out" ? db.out(first, "L") : db.in(first, "L");
          expect(
            db.countAdjacent(start, [
              [a, "L"],
              [b, "L"],
            ]),
          ).toBe(second.length);
          expect(db.countAdjacent(start, [[a, "L"]])).toBe(first.length);
        }
      });
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
