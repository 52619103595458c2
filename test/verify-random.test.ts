// verify() stays clean under seeded random writes: each write does a few operations (adds,
// updates, upserts, drops of nodes, edges and vectors mixed in one call, self-loops, parallel
// edges, reused UNIQUE values) and the store is verified after every one. A failure names the
// seed and the write.
import { afterEach, expect, test } from "vitest";
import type { GraphItem, NodeItem } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import { GraphStore } from "../runtime/graph-store.js";
import { between } from "./support/crash-seed.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { rng } from "./support/vector-fixtures.js";
import { verifySchema } from "./support/verify-fixtures.js";

const WRITES = 150;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

type Step = (db: QueryContext) => string;

function steps(random: () => number): Step {
  const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[between(random, 0, items.length)]);
  const some = <T>(items: readonly T[]): T[] => items.filter(() => random() < 0.1).slice(0, 5);
  const vector = (): number[] => [random(), random(), random()];
  return (db) => {
    const users = db.nodesByLabel("User");
    const posts = db.nodesByLabel("Post");
    const docs = db.vectorsByLabel("Doc");
    const chunks = db.vectorsByLabel("Chunk");
    const edges: GraphItem[] = [
      ...db.edgesByLabel("Follows"),
      ...db.edgesByLabel("Knows"),
      ...db.edgesByLabel("Wrote"),
      ...db.edgesByLabel("HasChunk"),
    ];
    const r = random();
    const u = pick(users);
    const v = pick(users);
    if (r < 0.25 || u === undefined || v === undefined) {
      const n = between(random, 0, 1000);
      db.addNode("User", {
        name: `user ${n} words`,
        email: `e${between(random, 0, 60)}@x`,
        age: between(random, 0, 9),
        tags: [`t${n % 4}`],
      });
      return "addNode User";
    }
    if (r < 0.35) {
      const label = pick(["Follows", "Knows", "Knows"] as const)!;
      db.addEdge(
        label,
        label === "Knows" && random() < 0.5 ? { code: `c${between(random, 0, 30)}` } : {},
        u.id,
        random() < 0.1 ? u.id : v.id,
      );
      return `addEdge ${label}`;
    }
    if (r < 0.45) {
      const post = db.addNode("Post", { title: `post ${between(random, 0, 50)} shared`, score: random() });
      db.addEdge("Wrote", {}, u.id, post.id);
      if (random() < 0.3) db.addEdge("Wrote", {}, u.id, post.id); // parallel edge
      return "addNode Post + Wrote";
    }
    if (r < 0.55) {
      db.updateNodes(some(users).concat(u), (item: NodeItem) => ({
        age: ((item.age as number) + 1) % 9,
        name: `${String(item.name)} again`,
        ...(random() < 0.3 ? { email: `e${between(random, 0, 60)}@x` } : {}),
      }));
      return "updateNodes User";
    }
    if (r < 0.6) {
      const knows = db.edgesByLabel("Knows");
      db.updateEdges(some(knows), { code: `c${between(random, 0, 30)}` });
      db.upsertEdge(
        "Follows",
        db.outE([u], "Follows").filter((e) => e.to_node === v.id),
        { weight: random() },
        u.id,
        v.id,
      );
      return "updateEdges Knows + upsertEdge Follows";
    }
    if (r < 0.72) {
      // Nodes, edges and vectors together, an edge with its own endpoint, an item twice.
      const doomed: GraphItem[] = [...some(users), ...some(edges), ...some(posts), ...some(docs)];
      if (random() < 0.5) doomed.push(u, ...db.outE([u], "Follows"));
      db.drop([...doomed, ...doomed.slice(0, 1)]);
      return `drop ${doomed.length}`;
    }
    if (r < 0.85) {
      const doc = db.addVector("Doc", vector(), {
        title: `doc ${between(random, 0, 50)} shared`,
        topic: `t${between(random, 0, 3)}`,
        slug: `s${between(random, 0, 40)}`,
      });
      if (random() < 0.5) db.addEdge("HasChunk", {}, doc.id, db.addVector("Chunk", [random(), random()], { text: "chunk text" }).id);
      return "addVector Doc";
    }
    if (r < 0.95) {
      const doc = pick(docs);
      db.upsertVector("Doc", doc === undefined ? [] : [doc], vector(), { title: "upserted text" });
      const chunk = pick(chunks);
      if (chunk !== undefined) db.updateNodes([chunk], { embedding: [random(), random()], text: "moved chunk" });
      return "upsertVector Doc + update Chunk";
    }
    // dropVector takes the vector's edges with it, as DROP does (half the Docs have a HasChunk edge).
    const doc = pick(docs);
    if (doc !== undefined) db.dropVector(doc);
    return "dropVector";
  };
}

for (const seed of [1, 2, 3]) {
  test(`verify stays clean after each of ${WRITES} random writes (seed ${seed})`, async () => {
    const dir = tempDir("strand-verify-random-");
    dirs.push(dir);
    const store = GraphStore.open({ path: dir, schema: verifySchema });
    const step = steps(rng(seed));
    const done: string[] = [];
    try {
      for (let w = 0; w < WRITES; w++) {
        let what = "";
        try {
          await store.write((db) => {
            what = step(db);
          });
        } catch (error) {
          what = `rejected: ${(error as Error).message.slice(0, 60)}`;
        }
        done.push(what);
        const { disagreements } = store.verify();
        if (disagreements.length > 0) expect({ seed, write: w, what, disagreements }).toEqual({ seed, write: w, what, disagreements: [] });
      }
    } finally {
      await store.close();
    }
    // Some of every kind of write succeeded.
    const succeeded = new Set(done.filter((d) => !d.startsWith("rejected")).map((d) => d.split(" ")[0]));
    expect([...succeeded].sort()).toEqual([
      "addEdge",
      "addNode",
      "addVector",
      "drop",
      "dropVector",
      "updateEdges",
      "updateNodes",
      "upsertVector",
    ]);
    const reopened = GraphStore.open({ path: dir, schema: verifySchema });
    try {
      expect(reopened.verify().disagreements).toEqual([]);
    } finally {
      await reopened.close();
    }
  }, 60_000);
}
