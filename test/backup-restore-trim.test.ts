// A store opened from a backup frees its commit log's old entries without harm. lmdb-js's
// compacting copy left a file whose first large free (trimming a log of entries on overflow
// pages, as a restored store or a seeded replica does 30 s after opening) aborted the process in
// mdb_page_alloc; backups are now copied page for page (runtime/backup/backup.ts). In a child
// process, since the failure is an abort.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "./support/server.js";

const work = tempDir("strand-backup-trim-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

it("trims the log of a store opened from a backup, then takes writes", () => {
  const child = spawnSync(
    process.execPath,
    [join(REPO_ROOT, "test/support/backup-trim-child.mjs"), join(REPO_ROOT, "dist/runtime/graph-store.js"), work, "600", "6000"],
    { encoding: "utf8", timeout: 120_000 },
  );
  expect({ status: child.status, signal: child.signal, stdout: child.stdout, stderr: child.stderr }).toEqual({
    status: 0,
    signal: null,
    // Entries 1..600 written and trimmed; the write after them (no follower) keeps itself alone.
    stdout: "ok 601\n",
    stderr: "",
  });
});
