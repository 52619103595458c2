// Every kind of read a store format change touches, as JSON: what the format-migration tests
// compare, on a migrated fixture store, with the answers the fixture's own format code gave
// (test/fixtures/format<N>/answers.json, recorded by `STRAND_ANSWERS_OF=<fixture dir> npx
// vite-node test/support/fixture-answers.ts` with the code of that format, before it changed).
import fs from "node:fs";
import path from "node:path";
import type { GraphItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { f32Vector } from "../../runtime/store/vector-encoding.js";
import { fixtureId, fixtureSchema } from "./format1-fixture.js";

const u = (i: number) => fixtureId(1, i);
const p = (i: number) => fixtureId(2, i);
const e = (i: number) => fixtureId(4, i);

function attempt<T>(fn: () => T): T | { error: string } {
  try {
    return fn();
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

const ids = (items: readonly GraphItem[]) => items.map((i) => i.id);

/** Every kind of read the format change touches, as JSON. */
export function answers(db: QueryContext): Record<string, unknown> {
  const user0 = db.nodeById("User", u(0));
  const users = db.nodesByLabel("User");
  return {
    users,
    posts: db.nodesByLabel("Post"),
    docs: db.vectorsByLabel("Doc"),
    follows: db.edgesByLabel("Follows"),
    likes: db.edgesByLabel("Likes"),
    wrote: db.edgesByLabel("Wrote"),
    about: db.edgesByLabel("About"),
    byHandle: db.nodesByIndex("User", "handle", "u3"),
    byCity: ids(db.nodesByIndex("User", "city", "Oslo")),
    byMood: ids(db.edgesByIndex("Wrote", "mood", "glad")),
    byTopic: ids(db.nodesByIndex("Doc", "topic", "odd")),
    outFollows: ids(db.out([user0], "Follows")),
    outLikes: ids(db.out([user0], "Likes")),
    outELikes: ids(db.outE([user0], "Likes")),
    inFollows: ids(db.in([db.nodeById("User", u(3))], "Follows")),
    inLikes: ids(db.in([db.nodeById("Post", p(1))], "Likes")),
    inEWrote: db.inE([db.nodeById("Post", p(2))], "Wrote"),
    twoHop: ids(db.out(db.out(users.slice(0, 3), "Follows"), "Wrote")),
    toN: ids(db.toN(db.outE([user0], "Follows"))),
    fromN: ids(db.fromN(db.inE([db.nodeById("Post", p(4))], "Likes"))),
    aboutTargets: ids(db.out(db.nodesByLabel("Post"), "About")),
    edgeById: db.edgeById("Likes", e(22)),
    edgeWithProps: db.edgeById("Wrote", e(57)),
    wroteNoProps: db.edgeById("Wrote", e(59)),
    droppedEdge: attempt(() => db.edgeById("Likes", e(30))),
    wrongLabel: attempt(() => db.edgeById("Follows", e(22))),
    anyEdge: db.itemOfKindById("E", e(60)),
    anyNode: db.itemOfKindById("N", p(3)),
    bm25: db.searchBM25("User", "graph user", 5).map((r) => [r.id, r.score]),
    bm25Posts: db.searchBM25("Post", "vector", 5).map((r) => [r.id, r.score]),
    searchV: db.searchVectors("Doc", [1, 0, 0, 1], 3).map((r) => r.id),
    count: db.itemsOfKind("E").length,
  };
}

/**
 * Answers recorded before format 4 as format 4 gives them: vectors are stored as f32 since, so
 * each component of `docs[].data` comes back as the shortest decimal of its f32 (the only change).
 */
export function withF32Vectors(recorded: unknown): unknown {
  const answers = recorded as { docs: { data: number[] }[] };
  return { ...answers, docs: answers.docs.map((d) => ({ ...d, data: f32Vector(d.data) })) };
}

// Records the answers of a fixture directory (its store/ opened read-write in a copy).
const of = process.env.STRAND_ANSWERS_OF;
if (of !== undefined) {
  const copy = fs.mkdtempSync(path.join(process.env.TMPDIR ?? "/tmp", "strand-answers-"));
  fs.cpSync(path.join(of, "store"), copy, { recursive: true });
  const store = GraphStore.open({ path: copy, schema: fixtureSchema() });
  const got = store.read((db) => answers(db));
  await store.close();
  fs.rmSync(copy, { recursive: true, force: true });
  fs.writeFileSync(path.join(of, "answers.json"), `${JSON.stringify(got, null, 1)}\n`);
}
