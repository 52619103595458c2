// Saving HNSW checkpoints safely (runtime/vector/index-files.ts): hnswlib writes its file without
// checking for errors, so a full disk leaves a truncated file it reports as saved. Every save is
// read back and checked before it replaces the previous checkpoint; a failed save names the real
// cause (EFBIG here, ENOSPC on a full disk) and leaves the previous checkpoint usable; a truncated
// file that an older version saved with a matching checksum is rebuilt at open, never fatal.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test, vi } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { inspectIndexFile } from "../runtime/vector/hnsw-file.js";
import { indexPaths, readIndexFileMeta, vectorsDir, type IndexFileMeta } from "../runtime/vector/index-files.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { buildStore, root } from "./support/transpile-tree.js";
import { gaussian, rng, unitVector, vectorSchema } from "./support/vector-fixtures.js";

const DIM = 8;
const COUNT = 5000;
let buildDir = "";
let storeModule = "";
let dir = "";

beforeAll(() => {
  ({ buildDir, storeModule } = buildStore("strand-vsave-"));
});
afterAll(() => removeDir(buildDir));

beforeEach(async () => {
  dir = tempDir("strand-vsave-");
  const normal = gaussian(rng(5));
  const store = GraphStore.open({ path: dir, schema: vectorSchema });
  await store.write((db) => {
    for (let i = 0; i < COUNT; i++) db.addVector("Doc", unitVector(normal, DIM), {});
  });
  await store.close();
});
afterEach(() => removeDir(dir));

function meta(): IndexFileMeta {
  return readIndexFileMeta(dir, "Doc") as IndexFileMeta;
}

test("a saved checkpoint is read back: its meta records the size, checksum and points of what is on disk", () => {
  const saved = meta();
  const file = indexPaths(dir, "Doc").index;
  expect(path.basename(file)).toBe(saved.file);
  expect(saved.file).toMatch(/^Doc\.5000-[0-9a-f]{8}\.hnsw$/);
  expect(inspectIndexFile(file)).toEqual({ bytes: saved.bytes, sha256: saved.sha256, elements: COUNT, problem: null });
  // Only the current checkpoint's files are left.
  expect(fs.readdirSync(vectorsDir(dir)).sort()).toEqual([saved.file, "Doc.meta.json"]);
});

test.runIf(spawnSync("prlimit", ["--version"]).status === 0)(
  "a save cut short by the file size limit fails naming EFBIG, and the previous checkpoint stays usable",
  async () => {
    const before = meta();
    const child = spawn(
      process.execPath,
      [path.join(root, "test/support/vector-save-child.mjs"), pathToFileURL(storeModule).href, dir, JSON.stringify(vectorSchema)],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    while (!stdout.includes("opened\n") && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    expect(spawnSync("prlimit", ["--pid", String(child.pid), `--fsize=${200_000}:unlimited`]).status).toBe(0);
    child.stdin.end("go\n");
    const status = await exited;
    expect({ status, stderr: status === 0 ? "" : stderr }).toEqual({ status: 0, stderr: "" });
    const lines = stdout.trim().split("\n");
    const out = JSON.parse(lines[lines.length - 1]!) as { status: { saved: number; failed: number; lastError: string }; close: string };
    expect(out.status).toMatchObject({ saved: 0, failed: 1 });
    expect(out.status.lastError).toMatch(
      /^hnswlib wrote a bad index file .*Doc\.5000-[0-9a-f]{8}\.hnsw\.tmp \(truncated: 200000 bytes end inside the points\): EFBIG/,
    );
    expect(out.close).toMatch(/^EFBIG: hnswlib wrote a bad index file/);
    expect(stderr).toContain("vector index checkpoint failed (the previous one stays in use): hnswlib wrote a bad index file");
    // Nothing half-written is left, and the old checkpoint (m 16) is untouched and loads.
    expect(meta()).toEqual(before);
    expect(
      fs
        .readdirSync(vectorsDir(dir))
        .filter((n) => n.startsWith("Doc"))
        .sort(),
    ).toEqual([before.file, "Doc.meta.json"]);
    const store = GraphStore.open({ path: dir, schema: vectorSchema });
    try {
      expect(store.vectorIndexStatus("Doc")).toMatchObject({ source: "loaded", reason: null, live: COUNT });
    } finally {
      await store.close();
    }
  },
  90_000,
);

test("a truncated file whose meta matches it (as saved before read-back checks) is rebuilt with one log line", async () => {
  const saved = meta();
  const file = indexPaths(dir, "Doc").index;
  fs.truncateSync(file, Math.floor(saved.bytes / 2));
  const { bytes, sha256 } = inspectIndexFile(file);
  const { elements: _, ...older } = saved; // metas of that era had no point count
  fs.writeFileSync(indexPaths(dir, "Doc").meta, JSON.stringify({ ...older, bytes, sha256 }));
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const store = GraphStore.open({ path: dir, schema: vectorSchema });
    try {
      expect(store.vectorIndexStatus("Doc")).toMatchObject({
        source: "rebuilt",
        reason: `corrupt: truncated: ${bytes} bytes end inside the points`,
        live: COUNT,
      });
      expect(store.verify()).toMatchObject({ disagreements: [], skipped: [] });
    } finally {
      await store.close();
    }
    expect(warn.mock.calls).toEqual([
      [
        `vector index V::Doc: rebuilt from LMDB (${COUNT} vectors) because the saved index is corrupt: truncated: ${bytes} bytes end inside the points`,
      ],
    ]);
  } finally {
    warn.mockRestore();
  }
  // The close saved a good checkpoint in place of the bad one.
  expect(meta().file).not.toBe(saved.file);
  expect(fs.existsSync(file)).toBe(false);
});

test("bytes appended to an index file, or a meta that counts other points, are refused", async () => {
  const saved = meta();
  const file = indexPaths(dir, "Doc").index;
  fs.appendFileSync(file, Buffer.alloc(16));
  const { bytes, sha256 } = inspectIndexFile(file);
  fs.writeFileSync(indexPaths(dir, "Doc").meta, JSON.stringify({ ...saved, bytes, sha256 }));
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    const store = GraphStore.open({ path: dir, schema: vectorSchema });
    expect(store.vectorIndexStatus("Doc")).toMatchObject({ source: "rebuilt", reason: "corrupt: 16 bytes after the end of the index" });
    await store.close();
    const good = meta();
    fs.writeFileSync(indexPaths(dir, "Doc").meta, JSON.stringify({ ...good, elements: COUNT + 1 }));
    const again = GraphStore.open({ path: dir, schema: vectorSchema });
    expect(again.vectorIndexStatus("Doc")).toMatchObject({
      source: "rebuilt",
      reason: `corrupt: ${COUNT} points in the file, ${COUNT + 1} in its meta`,
    });
    await again.close();
    expect(warn).toHaveBeenCalledTimes(2);
  } finally {
    warn.mockRestore();
  }
});
