// Writes a fixture store with the store code of the time: `STRAND_FIXTURE_OUT=<dir> npx vite-node
// test/support/format1-fixture.ts`. It was run once with the format-1 code (test/fixtures/format1/store),
// once with the format-2 code (test/fixtures/format2/store, same schema), once with the format-3
// code (test/fixtures/format3/store) and once with the format-4 code (test/fixtures/format4/store), each at the commit
// that added it, and the output committed; the format-migration tests open copies of them. Ids
// are fixed (so the committed expectations can name them); everything else is deterministic
// but the id of the edge the query path adds.
import fs from "node:fs";
import path from "node:path";
import { compileProject } from "../../compiler/index.js";
import { GraphStore } from "../../runtime/graph-store.js";

export const FIXTURE_SCHEMA = path.join(import.meta.dirname, "../fixtures/format1/schema.hx");

export function fixtureSchema() {
  const r = compileProject([{ file: FIXTURE_SCHEMA, text: fs.readFileSync(FIXTURE_SCHEMA, "utf8") }], { checkOnly: true });
  if (!r.ok || r.schema === null) throw new Error("fixture schema does not compile");
  return r.schema;
}

/** The i-th fixed id of a kind (a valid v7 UUID, sorted by i). */
export const fixtureId = (kind: number, i: number): string =>
  `0190${kind.toString(16)}000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;

const CITIES = ["Lyon", "Oslo", "Lima"];
const WORDS = ["graph", "vector", "search", "index", "store", "query", "edge", "node"];

async function main(dir: string): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  const store = GraphStore.open({ path: dir, schema: fixtureSchema() });
  await store.load((loader) => {
    for (let i = 0; i < 12; i++) {
      loader.load({
        kind: "N",
        label: "User",
        id: fixtureId(1, i),
        props: { handle: `u${i}`, city: CITIES[i % 3]!, name: `${WORDS[i % 8]} user ${i}`, age: 20 + i },
      });
    }
    for (let i = 0; i < 8; i++) {
      loader.load({
        kind: "N",
        label: "Post",
        id: fixtureId(2, i),
        props: { title: `${WORDS[i]} and ${WORDS[(i + 3) % 8]} post`, tags: [WORDS[(i + 1) % 8]!, "t"] },
      });
    }
    for (let i = 0; i < 6; i++) {
      const data = [Math.cos(i), Math.sin(i), i / 10, 1 - i / 10];
      loader.load({
        kind: "V",
        label: "Doc",
        id: fixtureId(3, i),
        data,
        props: { topic: i % 2 ? "odd" : "even", title: `doc ${WORDS[i]}` },
      });
    }
    let e = 0;
    // User 0 follows everyone (40 edges to User 1..11 would not fit a UNIQUE edge type; 11 do),
    // and 35 Likes from user 0 fill one sealed adjacency chunk.
    for (let i = 1; i < 12; i++)
      loader.load({ kind: "E", label: "Follows", id: fixtureId(4, e++), from: fixtureId(1, 0), to: fixtureId(1, i), props: {} });
    for (let i = 1; i < 12; i++)
      loader.load({ kind: "E", label: "Follows", id: fixtureId(4, e++), from: fixtureId(1, i), to: fixtureId(1, (i % 11) + 1), props: {} });
    for (let i = 0; i < 35; i++)
      loader.load({ kind: "E", label: "Likes", id: fixtureId(4, e++), from: fixtureId(1, 0), to: fixtureId(2, i % 8), props: {} });
    for (let i = 0; i < 10; i++) {
      loader.load({
        kind: "E",
        label: "Wrote",
        id: fixtureId(4, e++),
        from: fixtureId(1, i % 4),
        to: fixtureId(2, i % 8),
        props: i % 3 === 2 ? {} : { weight: i / 4, mood: i % 2 ? "glad" : "calm" },
      });
    }
    for (let i = 0; i < 8; i++)
      loader.load({ kind: "E", label: "About", id: fixtureId(4, e++), from: fixtureId(2, i), to: fixtureId(3, i % 6), props: {} });
  });
  // Some writes through queries' path too: an edge added, one dropped, a node updated.
  await store.write((db) => {
    db.addEdge("Likes", {}, fixtureId(1, 5), fixtureId(2, 1));
    db.drop([db.edgeById("Likes", fixtureId(4, 30))]);
    db.updateNodes([db.nodeById("User", fixtureId(1, 7))], { city: "Oslo", age: 99 });
  });
  await store.close();
  for (const lock of ["lock", "strand.lock", "lock.mdb"]) fs.rmSync(path.join(dir, lock), { force: true });
}

// vite-node hands the script only its own arguments.
const target = process.env.STRAND_FIXTURE_OUT;
if (target !== undefined) await main(target);
