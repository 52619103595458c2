// Backup and restore of a data directory (runtime/backup/), in process: the manifest, the
// refusals (an existing backup name, a non-empty or held target, a damaged or partial backup),
// and a restored store with vectors rebuilding its HNSW index from LMDB at its first open.
// The online case (a backup while a `strand serve` child writes) is test/backup-online.test.ts.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ProgressSink } from "../core/progress.js";
import { backupDataDir } from "../runtime/backup/backup.js";
import { readManifest } from "../runtime/backup/manifest.js";
import { restoreBackup } from "../runtime/backup/restore.js";
import { GraphStore } from "../runtime/graph-store.js";
import { LOCK_FILE, lockDirectory } from "../runtime/store/dir-lock.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { smallGraph, verifySchema } from "./support/verify-fixtures.js";

const work = tempDir("strand-backup-");
afterAll(() => removeDir(work));

/** A closed store holding smallGraph (nodes, edges, text, one vector), with saved HNSW files. */
async function sourceStore(name: string) {
  const dir = path.join(work, name);
  const store = GraphStore.open({ path: dir, schema: verifySchema });
  const g = await smallGraph(store);
  await store.close();
  return { dir, g };
}

/** Records every progress task and what it advanced by in total. */
function recordingProgress(): { sink: ProgressSink; tasks: { label: string; unit: string; done: number; finished: boolean }[] } {
  const tasks: { label: string; unit: string; done: number; finished: boolean }[] = [];
  return {
    tasks,
    sink: {
      start(label, unit) {
        const t = { label, unit, done: 0, finished: false };
        tasks.push(t);
        return { advance: (n) => (t.done += n), finish: () => (t.finished = true) };
      },
    },
  };
}

describe("backup and restore", () => {
  it("backs up to a directory with a manifest, and restores a store that verifies and rebuilds its vectors", async () => {
    const { dir, g } = await sourceStore("src");
    expect(fs.existsSync(path.join(dir, "vectors"))).toBe(true);
    const out = path.join(work, "backups", "b1");
    const progress = recordingProgress();
    const before = Date.now();
    const outcome = await backupDataDir(dir, out, progress.sink);
    if (!outcome.ok) throw new Error(outcome.message);
    // The copy and a manifest; no HNSW files (the restored store rebuilds them); no leftovers.
    expect(fs.readdirSync(out).sort()).toEqual(["data.mdb", "manifest.json"]);
    expect(fs.readdirSync(path.dirname(out))).toEqual(["b1"]);
    const size = fs.statSync(path.join(out, "data.mdb")).size;
    const manifest = readManifest(out);
    expect(manifest).toEqual({
      format: "strand-backup",
      version: 1,
      created: expect.any(String),
      store_format: 5,
      schema_version: null,
      files: [{ path: "data.mdb", bytes: size, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    expect(outcome.manifest).toEqual(manifest);
    expect(Date.parse(outcome.manifest.created)).toBeGreaterThanOrEqual(before - 1000);
    expect(progress.tasks.map((t) => [t.label, t.unit, t.finished])).toEqual([
      ["backup: copy", "bytes", true],
      ["backup: checksum", "bytes", true],
    ]);
    expect(progress.tasks[1]!.done).toBe(size);

    const target = path.join(work, "restored");
    const restoreProgress = recordingProgress();
    expect(restoreBackup(out, target, restoreProgress.sink)).toEqual({ ok: true, manifest });
    expect(restoreProgress.tasks).toEqual([{ label: "restore", unit: "bytes", done: size, finished: true }]);
    // The restore held the directory's lock; its file stays (dir-lock.ts never deletes it).
    expect(fs.readdirSync(target).sort()).toEqual(["data.mdb", LOCK_FILE]);
    const verified = await verifyDataDir(target);
    expect(verified).toMatchObject({ ok: true, report: { disagreements: [] } });

    const store = GraphStore.open({ path: target, schema: verifySchema });
    try {
      expect(store.vectorIndexStatus("Doc")).toEqual({
        label: "Doc",
        source: "rebuilt",
        reason: "missing",
        live: 1,
        generation: 1,
        replayed: 0,
      });
      expect(store.read((db) => db.nodeById("User", g.alice.id))).toEqual(g.alice);
      expect(store.read((db) => db.searchVectors("Doc", [1, 0, 0], 1).map((d) => d.id))).toEqual([g.doc.id]);
      expect(store.verify().disagreements).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("refuses to back up over an existing name or from a directory without a store", async () => {
    const { dir } = await sourceStore("src2");
    const out = path.join(work, "exists");
    fs.mkdirSync(out);
    expect(await backupDataDir(dir, out)).toEqual({ ok: false, code: "EXISTS", message: `${out} already exists; back up to a new name` });
    const inside = path.join(dir, "backups", "b");
    expect(await backupDataDir(dir, inside)).toEqual({
      ok: false,
      code: "INSIDE_DATA",
      message: `${inside} is inside the data directory ${dir}; back up to a directory outside it`,
    });
    expect(fs.existsSync(path.join(dir, "backups"))).toBe(false);
    const empty = path.join(work, "nothing");
    fs.mkdirSync(empty);
    expect(await backupDataDir(empty, path.join(work, "b-none"))).toEqual({
      ok: false,
      code: "NOT_A_STORE",
      message: `${empty} holds no Strand data (no data.mdb)`,
    });
    expect(fs.existsSync(path.join(work, "b-none"))).toBe(false);
    // A data file cut short: refused before LMDB maps it, the directory named once.
    const data = path.join(dir, "data.mdb");
    fs.truncateSync(data, 2 * 8192);
    const short = await backupDataDir(dir, path.join(work, "b-short"));
    expect(short).toMatchObject({ ok: false, code: "FAILED" });
    const message = (short as { message: string }).message;
    expect(
      message.startsWith(`cannot open the store in ${dir}: ${data} is ${2 * 8192} bytes, but the database it holds reaches at least `),
    ).toBe(true);
    expect(message.split("cannot open the store").length).toBe(2);
    expect(fs.existsSync(path.join(work, "b-short"))).toBe(false);
  });

  it("refuses a non-empty or held target, and a partial or damaged backup, leaving the target as it was", async () => {
    const { dir } = await sourceStore("src3");
    const out = path.join(work, "b3");
    const made = await backupDataDir(dir, out);
    expect(made.ok).toBe(true);

    // Non-empty: the source itself.
    const held = restoreBackup(out, dir);
    expect(held).toEqual({
      ok: false,
      code: "NOT_EMPTY",
      message: `${dir} is not empty (it holds data.mdb, lock.mdb, vectors); restore into a new or empty directory`,
    });
    // Non-empty, not a store: refused, and left exactly as it was (no lock file of the restore's own).
    const notes = path.join(work, "notes");
    fs.mkdirSync(notes);
    fs.writeFileSync(path.join(notes, "todo.txt"), "x");
    expect(restoreBackup(out, notes)).toEqual({
      ok: false,
      code: "NOT_EMPTY",
      message: `${notes} is not empty (it holds todo.txt); restore into a new or empty directory`,
    });
    expect(fs.readdirSync(notes)).toEqual(["todo.txt"]);
    // Held by a server (here: this process's lock).
    const busy = path.join(work, "busy");
    const unlock = lockDirectory(busy);
    try {
      expect(restoreBackup(out, busy)).toMatchObject({ ok: false, code: "LOCKED" });
    } finally {
      unlock();
    }
    expect(fs.readdirSync(busy)).toEqual([LOCK_FILE]);

    // An interrupted backup has no manifest.
    const partial = path.join(work, "b3.partial-1");
    fs.mkdirSync(partial);
    fs.copyFileSync(path.join(out, "data.mdb"), path.join(partial, "data.mdb"));
    const target = path.join(work, "never");
    expect(restoreBackup(partial, target)).toEqual({
      ok: false,
      code: "NOT_A_BACKUP",
      message: `${partial} is not a complete backup (no manifest.json: an interrupted backup, or not a backup at all)`,
    });
    expect(restoreBackup(path.join(work, "no-such"), target)).toEqual({
      ok: false,
      code: "NOT_A_BACKUP",
      message: `${path.join(work, "no-such")} is not a backup directory`,
    });

    // One flipped byte: the checksum catches it, and the target directory is not left behind.
    const damaged = path.join(work, "b3-damaged");
    fs.cpSync(out, damaged, { recursive: true });
    const file = path.join(damaged, "data.mdb");
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    expect(restoreBackup(damaged, target)).toEqual({
      ok: false,
      code: "DAMAGED",
      message: `${file} does not match its SHA-256 in the manifest: the backup is damaged`,
    });
    expect(fs.existsSync(target)).toBe(false);
    // A truncated copy: caught by its size before anything is written (or locked); an empty target stays empty.
    fs.truncateSync(file, 4096);
    fs.mkdirSync(target);
    expect(restoreBackup(damaged, target)).toEqual({
      ok: false,
      code: "DAMAGED",
      message: `${file} is 4096 bytes, the manifest says ${bytes.length}: the backup is damaged`,
    });
    expect(fs.readdirSync(target)).toEqual([]);
    // The same cut with a manifest made for it (a backup cut short before its manifest was
    // written): the data file check refuses it before the restore says it restored anything.
    const cutManifest = path.join(damaged, "manifest.json");
    const written = JSON.parse(fs.readFileSync(cutManifest, "utf8")) as { files: { path: string; bytes: number; sha256: string }[] };
    const cut = fs.readFileSync(file);
    const sha256 = createHash("sha256").update(cut).digest("hex");
    fs.writeFileSync(
      cutManifest,
      JSON.stringify({ ...written, files: written.files.map((f) => (f.path === "data.mdb" ? { ...f, bytes: cut.length, sha256 } : f)) }),
    );
    expect(restoreBackup(damaged, target)).toEqual({
      ok: false,
      code: "DAMAGED",
      message: expect.stringMatching(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is 4096 bytes, but the database it holds reaches at least \\d+ \\(page \\d+ of 8192 bytes\\): the backup is damaged; restore another one$`,
        ),
      ),
    });
    expect(fs.readdirSync(target)).toEqual([]);

    // A manifest of another version, or one whose file names reach outside the backup.
    const manifestFile = path.join(damaged, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: 2 }));
    expect(restoreBackup(damaged, target)).toEqual({
      ok: false,
      code: "NOT_A_BACKUP",
      message: `${manifestFile}: backup format version 2 is not supported (this Strand reads version 1)`,
    });
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, files: [{ path: "../x", bytes: 1, sha256: "0".repeat(64) }] }));
    expect(restoreBackup(damaged, target)).toEqual({
      ok: false,
      code: "NOT_A_BACKUP",
      message: `${manifestFile}: files[0]: path must be a plain file name`,
    });
  });
  it("an interrupted restore: a store does not open on what it left, a refused restore leaves it, and restoring again replaces it", async () => {
    const { dir } = await sourceStore("src5");
    const out = path.join(work, "b5");
    expect((await backupDataDir(dir, out)).ok).toBe(true);
    // What a restore killed while copying leaves: part of data.mdb under its temporary name.
    const target = path.join(work, "interrupted");
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, "data.mdb.restoring"), fs.readFileSync(path.join(out, "data.mdb")).subarray(0, 8192));
    let message = "";
    try {
      GraphStore.open({ path: target, schema: verifySchema });
    } catch (error) {
      message = `${(error as { code?: string }).code}: ${(error as Error).message}`;
    }
    expect(message).toBe(
      `STORAGE_CORRUPT: ${target} holds an unfinished restore (${path.join(target, "data.mdb.restoring")}), not a store: run strand restore into it again (it replaces the unfinished files)`,
    );
    expect(fs.readdirSync(target).sort()).toEqual(["data.mdb.restoring", LOCK_FILE].sort());
    // A restore refused for another reason (here: something else in the directory too) leaves the files alone.
    fs.writeFileSync(path.join(target, "other.txt"), "x");
    expect(restoreBackup(out, target)).toMatchObject({ ok: false, code: "NOT_EMPTY" });
    expect(fs.readdirSync(target).sort()).toEqual(["data.mdb.restoring", LOCK_FILE, "other.txt"].sort());
    fs.rmSync(path.join(target, "other.txt"));
    // `strand serve` on it writes its compile cache before refusing the store: that does not count.
    fs.mkdirSync(path.join(target, "compile-cache"));
    fs.writeFileSync(path.join(target, "compile-cache", "key.cache"), "x");
    // Restoring again replaces the unfinished files.
    expect(restoreBackup(out, target)).toMatchObject({ ok: true });
    expect(fs.existsSync(path.join(target, "data.mdb.restoring"))).toBe(false);
    expect(await verifyDataDir(target)).toMatchObject({ ok: true, report: { disagreements: [] } });
  });
  it("backs up under directories it makes, and refuses a place no directory can be made (it used to spin there for ever)", async () => {
    const { dir } = await sourceStore("src6");
    const nested = path.join(work, "new", "deeper", "b6");
    expect(await backupDataDir(dir, nested)).toMatchObject({ ok: true, dir: nested });
    expect(fs.readdirSync(nested).sort()).toEqual(["data.mdb", "manifest.json"]);
    // procfs refuses new entries with ENOENT, on which Node's recursive mkdir loops at 100% CPU.
    await expect(backupDataDir(dir, "/proc/strand-nope/b")).rejects.toThrow("ENOENT: no such file or directory, mkdir '/proc/strand-nope'");
  }, 10_000);
});
