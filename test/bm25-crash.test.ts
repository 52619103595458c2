// Durability of the keyword index: kill -9 while AddN writes of text documents stream in,
// reopen, and every acknowledged document is found by SearchBM25 — postings change in the
// record's own transaction, so the index holds exactly the documents the data holds.
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { buildStore, root } from "./support/transpile-tree.js";

const text = { kind: "scalar", name: "String" } as const;
const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "Note",
      fields: [
        { name: "title", type: text, index: "none", default: null },
        { name: "text", type: text, index: "none", default: null },
      ],
    },
  ],
  vectors: [],
  edges: [],
};

let buildDir = "";
let storeModule = "";
let dataDir = "";

beforeAll(() => {
  ({ buildDir, storeModule } = buildStore("strand-bm25crash-"));
  dataDir = tempDir("strand-bm25crash-");
});

afterAll(() => {
  removeDir(buildDir);
  removeDir(dataDir);
});

test("acknowledged documents are findable after SIGKILL", async () => {
  const child = spawn(process.execPath, [path.join(root, "test/support/bm25-crash-child.mjs"), pathToFileURL(storeModule).href, dataDir, JSON.stringify(schema)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const acked: { id: string; term: string }[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    // Past 300 the "shared" term's list has sealed blocks; kill at a random moment.
    const killAt = 300 + Math.floor(Math.random() * 200);
    child.stdout.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === "ready") continue;
        const [id, term] = line.split(" ");
        acked.push({ id: id!, term: term! });
      }
      if (acked.length >= killAt && child.exitCode === null && !child.killed) {
        child.kill("SIGKILL");
        resolve();
      }
    });
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child exited early (${code ?? signal}): ${stderr}`));
    });
  });
  expect(await exited).toBe("SIGKILL");
  expect(acked.length).toBeGreaterThanOrEqual(300);

  const store = GraphStore.open({ path: dataDir, schema });
  try {
    store.read((db) => {
      // Each acknowledged document is the best (and only) hit for its own term.
      const missing = acked.filter(({ id, term }) => db.searchBM25("Note", term, 5).map((h) => h.id).join() !== id);
      expect(missing).toEqual([]);
      // The index and the data agree on the whole set, acknowledged or not: every note has "shared".
      const notes = db.nodesByLabel("Note").map((n) => n.id);
      const found = db.searchBM25("Note", "shared", notes.length + 10).map((h) => h.id);
      expect([...found].sort()).toEqual(notes);
    });
    await store.write((db) => db.addNode("Note", { text: "after the crash" }));
    expect(store.read((db) => db.searchBM25("Note", "crash", 5).map((h) => h.text))).toEqual(["after the crash"]);
  } finally {
    await store.close();
  }
}, 60_000);
