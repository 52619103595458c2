// makeDirs (runtime/store/make-dirs.ts): `mkdir -p` one level at a time. Two servers starting on
// one new data directory race to make it; the one that finds it made meanwhile goes on (to the
// directory lock, which refuses it by name) instead of failing with mkdir's EEXIST.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import { makeDirs } from "../runtime/store/make-dirs.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dir = tempDir("strand-make-dirs-");
afterEach(() => vi.restoreAllMocks());

test("a directory made by someone else between the look and the mkdir is fine", () => {
  const target = path.join(dir, "race", "data");
  // The other process makes both levels just after this one looked and found them missing.
  const exists = vi.spyOn(fs, "existsSync").mockImplementation((p) => {
    const there = p === dir;
    if (p === dir) fs.mkdirSync(target, { recursive: true });
    return there;
  });
  makeDirs(target);
  exists.mockRestore();
  expect(fs.statSync(target).isDirectory()).toBe(true);
  removeDir(dir);
});

test("a file where a directory should be is still mkdir's EEXIST", () => {
  const base = tempDir("strand-make-dirs-file-");
  fs.writeFileSync(path.join(base, "f"), "");
  expect(() => makeDirs(path.join(base, "f"))).toThrow("EEXIST");
  const exists = vi.spyOn(fs, "existsSync").mockImplementation((p) => p === base);
  expect(() => makeDirs(path.join(base, "f"))).toThrow("EEXIST");
  exists.mockRestore();
  removeDir(base);
});
