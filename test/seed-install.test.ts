// installSeed (runtime/replication/seed.ts): a re-seed puts the leader's backup in place and keeps
// the data file it replaces, named by the history it held, the newest three, so a re-seed that
// followed a mistake or a failover (a store with writes of its own started with --follow, an old
// leader's unacknowledged writes) loses nothing at once, and the next re-seed does not overwrite it.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { installSeed, keptNote, needsSeed } from "../runtime/replication/seed.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test("the first seed replaces nothing; each re-seed keeps the data file it replaced, named by its history, the newest three", () => {
  const dir = tempDir("strand-seed-");
  dirs.push(dir);
  const seed = (text: string) => {
    const file = path.join(dir, `seed-${text}`);
    fs.writeFileSync(file, text);
    return file;
  };
  expect(needsSeed(dir)).toBe(true);
  expect(installSeed(seed("one"), dir, "seq-0")).toBeNull();
  expect(keptNote(null)).toBe("");
  fs.mkdirSync(path.join(dir, "vectors"));
  fs.writeFileSync(path.join(dir, "lock.mdb"), "lock");
  const keptAt = (history: string) => path.join(dir, `data.mdb.replaced-${history}`);
  // Each kept file is older than the next (the newest three are kept, by modification time).
  let time = 1_000_000;
  const install = (text: string, history: string): string | null => {
    fs.utimesSync(path.join(dir, "data.mdb"), time, time);
    time += 10;
    return installSeed(seed(text), dir, history);
  };
  expect(install("two", "epoch-2-seq-10")).toBe(keptAt("epoch-2-seq-10"));
  expect(install("three", "epoch-3-seq-20")).toBe(keptAt("epoch-3-seq-20"));
  expect(install("four", "epoch-4-seq-30")).toBe(keptAt("epoch-4-seq-30"));
  expect(install("five", "epoch-5-seq-40")).toBe(keptAt("epoch-5-seq-40"));
  expect(fs.readdirSync(dir).sort()).toEqual([
    "data.mdb",
    "data.mdb.replaced-epoch-3-seq-20",
    "data.mdb.replaced-epoch-4-seq-30",
    "data.mdb.replaced-epoch-5-seq-40",
  ]);
  expect([fs.readFileSync(path.join(dir, "data.mdb"), "utf8"), fs.readFileSync(keptAt("epoch-5-seq-40"), "utf8")]).toEqual([
    "five",
    "four",
  ]);
  expect(keptNote(keptAt("epoch-5-seq-40"))).toBe(
    `; the store it replaced is kept as ${keptAt("epoch-5-seq-40")} (the newest 3 are kept; to read one: move it into a new directory as data.mdb, then strand export --data that directory)`,
  );
});
