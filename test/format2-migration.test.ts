// A store written by the format-2 code (test/fixtures/format2/store, made by
// test/support/format1-fixture.ts with that code, before format 3) opens and answers every read
// exactly as the format-2 code answered it (fixtures/format2/answers.json, recorded from that
// code on this very fixture); `strand verify` is clean afterwards.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { answers } from "./support/fixture-answers.js";
import { fixtureSchema } from "./support/format1-fixture.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const FIXTURE = path.join(import.meta.dirname, "fixtures/format2/store");
const work = tempDir("strand-format2-");
afterAll(() => removeDir(work));

let copies = 0;
function fixtureCopy(): string {
  const dir = path.join(work, `copy-${copies++}`);
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

const EXPECTED: unknown = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/format2/answers.json"), "utf8"));

const VERIFIED = {
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
};

async function openAndCheck(dir: string): Promise<GraphStore["formatMigration"]> {
  const store = GraphStore.open({ path: dir, schema: fixtureSchema() });
  const got = store.read((db) => answers(db));
  const outcome = store.formatMigration;
  await store.close();
  expect(got).toEqual(EXPECTED);
  expect(await verifyDataDir(dir)).toEqual(VERIFIED);
  return outcome;
}

describe("format-2 fixture", () => {
  it("answers as the format-2 code did", async () => {
    expect(await openAndCheck(fixtureCopy())).toBeNull();
  });
});
