// Opening a data directory whose data file was truncated to 0 bytes: lmdb would take it for a new,
// empty database, so every record would silently be gone. The open refuses it, naming the file,
// and changes nothing (issue 14, item 8).
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { isStrandError } from "../core/errors.js";
import { GraphStore } from "../runtime/graph-store.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { removeDir, schema, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function emptyDataFile(): { dir: string; file: string } {
  const dir = tempDir("strand-empty-data-");
  dirs.push(dir);
  const file = path.join(dir, "data.mdb");
  fs.writeFileSync(file, "");
  return { dir, file };
}

/** `text` as a regular expression matching itself. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function openError(dir: string): { code: string; message: string } | string {
  try {
    GraphStore.open({ path: dir, schema });
    return "opened";
  } catch (error) {
    return isStrandError(error) ? { code: error.code, message: error.message } : String(error);
  }
}

test("a data file of 0 bytes is refused, naming it, and stays as it was", () => {
  const { dir, file } = emptyDataFile();
  const refusal = {
    code: "STORAGE_CORRUPT",
    message: `${file} is empty (0 bytes): the data file was truncated, so opening it would show an empty database; restore the directory from a backup, or delete the file if this store never held data`,
  };
  expect(openError(dir)).toEqual(refusal);
  expect(fs.statSync(file).size).toBe(0);
  // The refused open released the directory: a second try meets the same refusal, not a lock.
  expect(openError(dir)).toEqual(refusal);
});

test("strand verify says the same instead of verifying an empty database", async () => {
  const { dir, file } = emptyDataFile();
  expect(await verifyDataDir(dir)).toEqual({
    ok: false,
    code: "UNREADABLE",
    message: `cannot open the store in ${dir}: ${file} is empty (0 bytes): the data file was truncated, so opening it would show an empty database; restore the directory from a backup, or delete the file if this store never held data`,
  });
});

test("a data file cut short is refused with its sizes instead of a SIGBUS, by the store and by strand verify", async () => {
  const dir = tempDir("strand-short-data-");
  dirs.push(dir);
  const store = GraphStore.open({ path: dir, schema });
  await store.write((db) => {
    for (let i = 0; i < 2000; i++) db.addNode("User", { name: `u${i}`, age: i % 200 });
  });
  await store.close();
  const file = path.join(dir, "data.mdb");
  const whole = fs.statSync(file).size;
  expect(whole).toBeGreaterThan(8 * 8192);
  fs.truncateSync(file, 5 * 8192);
  const refused = openError(dir) as { code: string; message: string };
  expect(refused.code).toBe("STORAGE_CORRUPT");
  const shape = new RegExp(
    `^${literal(file)} is ${5 * 8192} bytes, but the database it holds reaches at least (\\d+) \\(page (\\d+) of 8192 bytes\\): the data file was truncated \\(an interrupted copy\\?\\); restore the directory from a backup$`,
  );
  const [, needed, page] = shape.exec(refused.message) ?? [];
  // The root it names lies past the cut, inside the whole file.
  expect(Number(needed)).toBe((Number(page) + 1) * 8192);
  expect(Number(needed)).toBeGreaterThan(5 * 8192);
  expect(Number(needed)).toBeLessThanOrEqual(whole);
  expect(await verifyDataDir(dir)).toEqual({
    ok: false,
    code: "UNREADABLE",
    message: `cannot open the store in ${dir}: ${refused.message}`,
  });
  // Cut inside the second meta page: still refused, naming the two pages LMDB needs at least.
  fs.truncateSync(file, 8192 + 100);
  expect(openError(dir)).toMatchObject({ code: "STORAGE_CORRUPT" });
  expect(fs.statSync(file).size).toBe(8192 + 100);
});

test("a new directory still opens as a new store", async () => {
  const dir = tempDir("strand-new-data-");
  dirs.push(dir);
  const store = GraphStore.open({ path: dir, schema });
  await store.close();
  expect(fs.statSync(path.join(dir, "data.mdb")).size).toBeGreaterThan(0);
});

test("a data file that is not LMDB's, or whose first page is damaged, is refused instead of crashing the process", async () => {
  const dir = tempDir("strand-not-lmdb-");
  dirs.push(dir);
  const file = path.join(dir, "data.mdb");
  const refusal = {
    code: "STORAGE_CORRUPT",
    message: `${file} is not an LMDB data file, or its first page is damaged (no LMDB header at its start): restore the directory from a backup`,
  };
  fs.writeFileSync(file, "hello\n");
  expect(openError(dir)).toEqual(refusal);
  expect(await verifyDataDir(dir)).toEqual({
    ok: false,
    code: "UNREADABLE",
    message: `cannot open the store in ${dir}: ${refusal.message}`,
  });
  // A real store whose first page was overwritten (LMDB ended the process with a segfault).
  fs.rmSync(file);
  const store = GraphStore.open({ path: dir, schema });
  await store.write((db) => db.addNode("User", { name: "a", age: 1 }));
  await store.close();
  const fd = fs.openSync(file, "r+");
  fs.writeSync(fd, Buffer.alloc(4000, 0x5a), 0, 4000, 16);
  fs.closeSync(fd);
  expect(openError(dir)).toEqual(refusal);
});
