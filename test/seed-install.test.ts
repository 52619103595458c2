// installSeed (runtime/replication/seed.ts): a re-seed puts the leader's backup in place and keeps
// the data file it replaces (one copy, the newest), so a re-seed that followed a mistake (a store
// with writes of its own started with --follow) loses nothing for good.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { installSeed, keptNote, needsSeed } from "../runtime/replication/seed.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test("the first seed replaces nothing; each re-seed keeps the data file it replaced as data.mdb.replaced", () => {
  const dir = tempDir("strand-seed-");
  dirs.push(dir);
  const seed = (text: string) => {
    const file = path.join(dir, `seed-${text}`);
    fs.writeFileSync(file, text);
    return file;
  };
  expect(needsSeed(dir)).toBe(true);
  expect(installSeed(seed("one"), dir)).toBeNull();
  expect(keptNote(null)).toBe("");
  fs.mkdirSync(path.join(dir, "vectors"));
  fs.writeFileSync(path.join(dir, "lock.mdb"), "lock");
  const kept = path.join(dir, "data.mdb.replaced");
  expect(installSeed(seed("two"), dir)).toBe(kept);
  expect(installSeed(seed("three"), dir)).toBe(kept);
  expect(fs.readdirSync(dir).sort()).toEqual(["data.mdb", "data.mdb.replaced"]);
  expect([fs.readFileSync(path.join(dir, "data.mdb"), "utf8"), fs.readFileSync(kept, "utf8")]).toEqual(["three", "two"]);
  expect(keptNote(kept)).toBe(`; the store it replaced is kept as ${kept} until the next re-seed (delete it once not needed)`);
});
