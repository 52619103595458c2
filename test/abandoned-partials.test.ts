// What an interrupted export or backup left (FILE.partial-<pid>) is removed by the next run to
// the same FILE when its process is gone; a running one's, this process's and other names stay.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { removeAbandonedPartials } from "../cli/commands/abandoned-partials.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dir = tempDir("strand-partials-");
afterAll(() => removeDir(dir));

test("removes the partial files and directories of processes that are gone, and only those", () => {
  const gone = spawnSync(process.execPath, ["-e", ""]).pid;
  const names = [
    `out.jsonl.partial-${gone}`, // a file of a process that is gone: removed
    `bk.partial-${gone}`, // another output's: stays
    `out.jsonl.partial-${process.pid}`, // this process's own: stays
    "out.jsonl.partial-1", // a running process (init): stays
    "out.jsonl.partial-x1", // not a pid: stays
    "out.jsonl",
  ];
  for (const name of names) fs.writeFileSync(path.join(dir, name), "x");
  fs.mkdirSync(path.join(dir, `bk.partial-${gone}`, "..", `out.jsonl.partial-${gone + 1_000_000_000}`));
  expect(
    removeAbandonedPartials(path.join(dir, "out.jsonl"))
      .map((p) => path.basename(p))
      .sort(),
  ).toEqual([`out.jsonl.partial-${gone}`, `out.jsonl.partial-${gone + 1_000_000_000}`].sort());
  expect(fs.readdirSync(dir).sort()).toEqual(
    [`bk.partial-${gone}`, `out.jsonl.partial-${process.pid}`, "out.jsonl.partial-1", "out.jsonl.partial-x1", "out.jsonl"].sort(),
  );
  expect(removeAbandonedPartials(path.join(dir, "missing-dir", "out.jsonl"))).toEqual([]);
});
