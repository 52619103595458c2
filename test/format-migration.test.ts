// A store written by the format-1 code (test/fixtures/format1/store, made by
// test/support/format1-fixture.ts before the format changed) opens, is migrated to the current
// format, and answers every read exactly as the format-1 code answered it (fixtures/format1/answers.json was
// recorded from the format-1 code, on this very fixture); `strand verify` is clean afterwards.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { GraphItem } from "../core/items.js";
import type { QueryContext } from "../core/query-context.js";
import { GraphStore } from "../runtime/graph-store.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { fixtureId, fixtureSchema } from "./support/format1-fixture.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures/format1/store");
const work = tempDir("strand-format-");
afterAll(() => removeDir(work));

let copies = 0;
export function fixtureCopy(): string {
  const dir = path.join(work, `copy-${copies++}`);
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

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

/** answers() of the fixture as the format-1 code gave them (recorded before the format changed). */
const EXPECTED: unknown = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/format1/answers.json"), "utf8"));

describe("format migration", () => {
  it("answers as the format-1 code did", async () => {
    const dir = fixtureCopy();
    const store = GraphStore.open({ path: dir, schema: fixtureSchema() });
    const got = store.read((db) => answers(db));
    await store.close();
    expect(got).toEqual(EXPECTED);
    expect(await verifyDataDir(dir)).toEqual({
      ok: true,
      report: {
        counts: {
          nodes: 20,
          edges: 75,
          vectors: 6,
          indexEntries: 25,
          uniqueClaims: 34,
          adjacencyEntries: 150,
          bm25Documents: 26,
          bm25Postings: 126,
          vectorIndexes: 1,
        },
        disagreements: [],
        skipped: [],
      },
    });
  });
});
