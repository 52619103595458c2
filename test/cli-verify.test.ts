// `strand verify <data dir>` (built dist/cli/strand.js): exit 0 with a summary on a clean store,
// exit 1 listing each disagreement, a one-line error for a directory it cannot verify, exit 2
// for bad usage.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { LOCK_FILE } from "../runtime/store/dir-lock.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { CLI } from "./support/server.js";
import { corrupt, smallGraph, verifySchema } from "./support/verify-fixtures.js";
import { indexKey } from "../runtime/store/keys.js";

const work = tempDir("strand-cli-verify-");
afterAll(() => removeDir(work));

/** The run with the duration of its progress line ("verify: N entries in 0s") masked. */
function timeless(r: ReturnType<typeof strand>): ReturnType<typeof strand> {
  return { ...r, stderr: r.stderr.replace(/^(verify: \d+ entries in )\S+$/m, "$1…") };
}

function strand(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: work,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const COUNTS =
  "4 nodes, 4 edges, 1 vector, 4 index entries, 5 unique claims, 8 adjacency entries, 4 bm25 documents, 11 postings, 1 vector index";

describe("strand verify", () => {
  it("reports a clean store, then each disagreement of a corrupted one", async () => {
    const dir = join(work, "data");
    const store = GraphStore.open({ path: dir, schema: verifySchema });
    const g = await smallGraph(store);
    await store.close();

    // Progress on stderr: the entries read (the time masked).
    expect(timeless(strand(["verify", "data"]))).toEqual({ status: 0, stdout: `ok: ${COUNTS}\n`, stderr: "verify: 69 entries in …\n" });

    await corrupt(dir, (dbs) => {
      dbs.index.removeSync(indexKey("V", "Doc", "topic", "t", g.doc.id));
      dbs.bm25Stats.putSync(["Post"], { ...dbs.bm25Stats.get(["Post"])!, docs: 2 });
    });
    expect(timeless(strand(["verify", dir]))).toEqual({
      status: 1,
      stdout:
        `index index ["V","Doc","topic","t","${g.doc.id}"]: V::Doc '${g.doc.id}' has topic "t" but no index entry\n` +
        `bm25-stats bm25_stats ["Post"]: docs is 2, the type has 1 documents\n`,
      stderr: `verify: 68 entries in …\nstrand: data has 2 disagreements (${COUNTS.replace("4 index entries", "3 index entries")})\n`,
    });
  });

  it("says why it cannot verify: no directory, no data, a running server", async () => {
    expect(strand(["verify", "missing"])).toEqual({ status: 1, stdout: "", stderr: "strand: missing is not a directory\n" });
    expect(strand(["verify", "."])).toEqual({ status: 1, stdout: "", stderr: "strand: . holds no Strand data (no data.mdb)\n" });
    // A store this process holds open is, for the child, a running server's.
    const held = join(work, "held");
    const store = GraphStore.open({ path: held, schema: verifySchema });
    try {
      expect(strand(["verify", "held"])).toEqual({
        status: 1,
        stdout: "",
        stderr: `strand: data directory held is in use by process ${process.pid}; stop that server first\n`,
      });
    } finally {
      await store.close();
    }
    // A pid left in the lock file with no lock on it holds nothing.
    writeFileSync(join(held, LOCK_FILE), `${process.pid}\n`);
    expect(strand(["verify", "held"]).status).toBe(0);
  });

  it("needs exactly one data directory", () => {
    const none = strand(["verify"]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^strand: strand verify needs exactly one data directory, got none\nusage: strand verify <data dir>/);
    expect(strand(["verify", "a", "b"]).stderr).toMatch(/^strand: strand verify needs exactly one data directory, got a b\n/);
  });
});
