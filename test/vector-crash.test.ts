// Durability of vectors: kill -9 while AddV writes stream in, reopen, and every acknowledged
// vector is searchable. The index files on disk (saved by an earlier clean close) are then stale
// and must be rebuilt from LMDB, not loaded.
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { buildStore, root } from "./support/transpile-tree.js";
import { gaussian, rng, unitVector, vectorSchema } from "./support/vector-fixtures.js";

const DIM = 16;
let buildDir = "";
let storeModule = "";
let dataDir = "";

beforeAll(() => {
  ({ buildDir, storeModule } = buildStore("strand-vcrash-"));
  dataDir = tempDir("strand-vcrash-");
});

afterAll(() => {
  removeDir(buildDir);
  removeDir(dataDir);
});

test("acknowledged vectors survive SIGKILL; stale index files are rebuilt", async () => {
  // A clean first run leaves index files describing 100 vectors.
  const normal = gaussian(rng(3));
  const first = GraphStore.open({ path: dataDir, schema: vectorSchema });
  await first.write((db) => {
    for (let i = 0; i < 100; i++) db.addVector("Doc", unitVector(normal, DIM), { slug: `first-${i}` });
  });
  await first.close();

  const child = spawn(process.execPath, [path.join(root, "test/support/vector-crash-child.mjs"), pathToFileURL(storeModule).href, dataDir, JSON.stringify(vectorSchema), String(DIM)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const acked: { id: string; vector: number[] }[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    const killAt = 300 + Math.floor(Math.random() * 200);
    child.stdout.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === "ready") continue;
        const space = line.indexOf(" ");
        acked.push({ id: line.slice(0, space), vector: JSON.parse(line.slice(space + 1)) as number[] });
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

  const store = GraphStore.open({ path: dataDir, schema: vectorSchema });
  try {
    const status = store.vectorIndexStatus("Doc");
    expect(status.source).toBe("rebuilt");
    expect(status.reason).toMatch(/^stale: generation is 100 in the file, \d+ expected$/);
    expect(status.live).toBeGreaterThanOrEqual(100 + acked.length);
    store.read((db) => {
      const all = new Set(db.searchVectors("Doc", acked[0]!.vector, status.live).map((d) => d.id));
      expect(all.size).toBe(status.live);
      expect(acked.filter((a) => !all.has(a.id))).toEqual([]);
      for (const a of acked) {
        const [best] = db.searchVectors("Doc", a.vector, 1);
        expect([best!.id, best!.score]).toEqual([a.id, 1]);
      }
    });
    await store.write((db) => db.addVector("Doc", unitVector(normal, DIM), { slug: "after crash" }));
  } finally {
    await store.close();
  }
  // The clean close saved a current index: the next open loads it.
  const again = GraphStore.open({ path: dataDir, schema: vectorSchema });
  try {
    expect(again.vectorIndexStatus("Doc")).toMatchObject({ source: "loaded", reason: null });
  } finally {
    await again.close();
  }
}, 60_000);
