// strand export then strand import into an empty directory: the same records and ids, the same
// index lookups, BM25 and vector search results and traversals, a clean verify, and an export
// of the imported store that is byte for byte the first one.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import type { NodeItem } from "../core/items.js";
import { silentProgress } from "../core/progress.js";
import type { QueryContext } from "../core/query-context.js";
import { exportDataDir } from "../runtime/data/export.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { schemaOf } from "./support/compile-schema.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { rng } from "./support/vector-fixtures.js";

const schema = schemaOf(`
N::User {
    UNIQUE INDEX handle: String,
    INDEX city: String,
    bio: String,
    age: U32,
    joined: Date DEFAULT NOW,
    tags: [String]
}
V::Doc {
    title: String,
    INDEX topic: String
}
E::Follows {
    From: User,
    To: User,
    Properties: { weight: F64, INDEX kind: String }
}
E::Likes UNIQUE {
    From: User,
    To: Doc
}
`);

const WORDS = ["graph", "vector", "keyword", "river", "stone", "cloud", "paper", "lamp"];
const CITIES = ["Lyon", "Oslo", "Lima"];
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function newDir(): string {
  const dir = tempDir("strand-data-");
  dirs.push(dir);
  return dir;
}

async function exportText(dir: string): Promise<string> {
  let text = "";
  const counts = await exportDataDir(
    dir,
    async (chunk) => {
      text += chunk.toString("utf8");
    },
    silentProgress,
  );
  if (typeof counts === "string") throw new Error(counts);
  return text;
}

/** Everything the test compares, read through the query context. */
function observe(db: QueryContext, users: readonly string[], probes: readonly number[][]): unknown {
  const ids = (items: readonly NodeItem[]) => items.map((i) => i.id);
  return {
    users: db.nodesByLabel("User"),
    docs: db.nodesByLabel("Doc"),
    follows: db.edgesByLabel("Follows"),
    likes: db.edgesByLabel("Likes"),
    byCity: CITIES.map((city) => ids(db.nodesByIndex("User", "city", city))),
    byHandle: ["u3", "u17", "nobody"].map((handle) => ids(db.nodesByIndex("User", "handle", handle))),
    byKind: ids(db.edgesByIndex("Follows", "kind", "close")),
    bm25: WORDS.map((w) => db.searchBM25("User", w, 5).map((u) => [u.id, u.score])),
    vectors: probes.map((p) => db.searchVectors("Doc", p, 4).map((d) => [d.id, d.score])),
    out: users.map((u) => ids(db.out([db.nodeById("User", u)], "Follows"))),
    in: users.map((u) => ids(db.in([db.nodeById("User", u)], "Follows"))),
    liked: users.map((u) => ids(db.out([db.nodeById("User", u)], "Likes"))),
  };
}

test("export, import into an empty directory, export again: the same store, byte for byte", async () => {
  const random = rng(7);
  const vector = () => Array.from({ length: 8 }, () => random() - 0.5);
  const source = newDir();
  const store = GraphStore.open({ path: source, schema });
  const users = await store.write((db) =>
    Array.from({ length: 40 }, (_, i) =>
      db.addNode("User", {
        handle: `u${i}`,
        city: CITIES[i % 3]!,
        bio: `${WORDS[i % 8]} ${WORDS[(i * 3) % 8]} line "${i}"\nsecond`,
        age: 20 + i,
        ...(i % 4 === 0 ? {} : { tags: [WORDS[i % 5]!, "t"] }),
      }),
    ),
  );
  const docs = await store.write((db) =>
    Array.from({ length: 25 }, (_, i) => db.addVector("Doc", vector(), { title: `doc ${i}`, topic: WORDS[i % 3]! })),
  );
  await store.write((db) => {
    for (let i = 0; i < 300; i++) {
      const from = users[Math.floor(random() * users.length)]!;
      const to = users[Math.floor(random() * users.length)]!;
      db.addEdge("Follows", { weight: i / 10, kind: i % 5 === 0 ? "close" : "far" }, from.id, to.id);
    }
    for (let i = 0; i < 60; i++) {
      const from = users[i % users.length]!;
      const to = docs[(i * 7) % docs.length]!;
      if (db.out([from], "Likes").every((d) => d.id !== to.id)) db.addEdge("Likes", {}, from.id, to.id);
    }
  });
  // Holes: a dropped user (with its edges), a dropped vector, an update.
  await store.write((db) => {
    db.drop([users[5]!]);
    db.dropVector(docs[3]!);
    db.updateNodes([users[6]!], { bio: "renamed river" });
  });
  const kept = users.filter((_, i) => i !== 5).map((u) => u.id);
  const probes = [vector(), vector(), vector()];
  const before = store.read((db) => observe(db, kept, probes));
  await store.close();

  const exported = await exportText(source);
  const lines = exported.trimEnd().split("\n");
  expect(lines.map((l) => JSON.parse(l).kind).join("")).toMatch(/^N{39}V{24}E+$/);
  // The edge field `kind` travels as `$kind` beside the envelope's own "kind".
  expect(Object.keys(JSON.parse(lines.find((l) => l.includes('"label":"Follows"'))!))).toEqual([
    "kind",
    "label",
    "id",
    "from",
    "to",
    "weight",
    "$kind",
  ]);

  const file = path.join(newDir(), "all.jsonl");
  fs.writeFileSync(file, exported);
  const target = newDir();
  const copy = GraphStore.open({ path: target, schema });
  const outcome = await importFiles(copy, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  expect(outcome).toEqual([{ path: file, loaded: lines.length, rejected: 0, firstRejected: null }]);
  expect(copy.read((db) => observe(db, kept, probes))).toEqual(before);
  expect(copy.verify().disagreements).toEqual([]);
  await copy.close();

  // Reopened (vector index from its files): still the same, and the export is the same bytes.
  const reopened = GraphStore.open({ path: target, schema });
  expect(reopened.read((db) => observe(db, kept, probes))).toEqual(before);
  await reopened.close();
  expect(await exportText(target)).toBe(exported);
});
