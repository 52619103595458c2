// How an export hands its chunks to the writer (runtime/data/line-buffer.ts): two buffers take
// turns, so a chunk's memory is only reused once the writer's promise for it has resolved; a
// writer that takes its time still gets every chunk intact, and one that fails stops the export
// with its error.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { silentProgress } from "../core/progress.js";
import { exportDataDir } from "../runtime/data/export.js";
import { importFileOf, importFiles } from "../runtime/data/import.js";
import { GraphStore } from "../runtime/graph-store.js";
import { asBinary } from "lmdb";
import { openDbs } from "../runtime/store/dbs.js";
import { uuidv7 } from "../runtime/store/ids.js";
import { itemKey } from "../runtime/store/keys.js";
import { schemaOf } from "./support/compile-schema.js";
import { CLI } from "./support/server.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const schema = schemaOf(`
N::User { name: String }
E::Follows { From: User, To: User }
`);

let dir = "";
let lines: string[] = [];
beforeEach(async () => {
  dir = tempDir("strand-export-");
  // About 2.5 MB of lines: three chunks and more.
  const users = Array.from({ length: 100 }, (_, i) => ({ kind: "N", label: "User", id: uuidv7(), name: `user ${i}` }));
  const edges = Array.from({ length: 18_000 }, (_, i) => ({
    kind: "E",
    label: "Follows",
    id: uuidv7(),
    from: users[Math.floor(i / 180)]!.id,
    to: users[i % 100]!.id,
  }));
  lines = [...users, ...edges].map((r) => JSON.stringify(r));
  const file = path.join(dir, "in.jsonl");
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  const store = GraphStore.open({ path: path.join(dir, "data"), schema });
  await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
  await store.close();
});
afterEach(() => removeDir(dir));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("a writer that copies each chunk only when it is done with it still gets every line intact", async () => {
  const copies: Buffer[] = [];
  const counts = await exportDataDir(
    path.join(dir, "data"),
    async (chunk) => {
      await pause(5); // the next chunk fills meanwhile
      copies.push(Buffer.from(chunk));
    },
    silentProgress,
  );
  expect(counts).toEqual({ nodes: 100, vectors: 0, edges: 18_000 });
  expect(copies.length).toBeGreaterThan(2);
  expect(Buffer.concat(copies).toString("utf8")).toBe(`${lines.join("\n")}\n`);
});

test("a writer that fails stops the export with its error", async () => {
  let calls = 0;
  const failing = exportDataDir(
    path.join(dir, "data"),
    async () => {
      calls++;
      await pause(1);
      if (calls === 2) throw new Error("disk full");
    },
    silentProgress,
  );
  await expect(failing).rejects.toThrow("disk full");
  expect(calls).toBe(2);
});

test("a node's or an edge's field named like an envelope member is exported: `data` as it is, `kind`, `from`, `to` escaped with $", async () => {
  const own = tempDir("strand-export-names-");
  try {
    const named = schemaOf(`
N::A { data: String, kind: String, n: I64 }
E::L { From: A, To: A, Properties: { data: String, from: String } }
`);
    const a = "01900000-0000-7000-8000-000000000001";
    const e = "01900000-0000-7000-8000-000000000002";
    const input = [
      `{"kind":"N","label":"A","id":"${a}","data":"keep me","$kind":"k","n":1}`,
      `{"kind":"E","label":"L","id":"${e}","from":"${a}","to":"${a}","data":"edge payload","$from":"f"}`,
    ];
    const file = path.join(own, "in.jsonl");
    fs.writeFileSync(file, `${input.join("\n")}\n`);
    const store = GraphStore.open({ path: path.join(own, "data"), schema: named });
    await importFiles(store, [importFileOf(file)], { skipBad: false, progress: silentProgress });
    await store.close();
    const chunks: Buffer[] = [];
    await exportDataDir(path.join(own, "data"), async (chunk) => void chunks.push(Buffer.from(chunk)), silentProgress);
    expect(Buffer.concat(chunks).toString("utf8")).toBe(`${input.join("\n")}\n`);
  } finally {
    removeDir(own);
  }
});

test("a record whose bytes do not decode (a bit flip) is named and left out; everything else is exported", async () => {
  const users = lines.slice(0, 100).map((l) => JSON.parse(l) as { id: string });
  const damaged = users[37]!.id;
  const dbs = openDbs(path.join(dir, "data"), undefined);
  try {
    // A map of five members that ends in its first key: the record cannot be decoded.
    dbs.env.transactionSync(() => dbs.nodes.putSync(itemKey("User", damaged), asBinary(Buffer.from([0x85, 0xa2, 0x69])) as never));
  } finally {
    await dbs.env.close();
  }
  const chunks: Buffer[] = [];
  const counts = await exportDataDir(path.join(dir, "data"), async (chunk) => void chunks.push(Buffer.from(chunk)), silentProgress);
  expect(counts).toEqual({
    nodes: 99,
    vectors: 0,
    edges: 18_000,
    damaged: [expect.stringMatching(new RegExp(`^User ${damaged}: .+`))],
  });
  const out = Buffer.concat(chunks).toString("utf8");
  expect(out).toBe(`${lines.filter((_, i) => i !== 37).join("\n")}\n`);
});

test("strand export of a store with a damaged record writes the rest, names it, and exits 1", async () => {
  const users = lines.slice(0, 100).map((l) => JSON.parse(l) as { id: string });
  const dbs = openDbs(path.join(dir, "data"), undefined);
  try {
    dbs.env.transactionSync(() => dbs.nodes.putSync(itemKey("User", users[5]!.id), asBinary(Buffer.from([0x85, 0xa2, 0x69])) as never));
  } finally {
    await dbs.env.close();
  }
  const out = path.join(dir, "out.jsonl");
  const r = spawnSync(process.execPath, [CLI, "export", "--data", path.join(dir, "data"), "--out", out], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`exported 99 nodes, 0 vectors, 18000 edges to ${out}\n`);
  expect(r.stderr).toMatch(
    new RegExp(
      `strand: 1 record does not decode \\(the data file is damaged\\) and is not in the export:\\n  User ${users[5]!.id}: .+\\nrestore the directory from a backup, or keep this export of the rest\\n$`,
    ),
  );
  expect(fs.readFileSync(out, "utf8").split("\n").length - 1).toBe(lines.length - 1);
});
