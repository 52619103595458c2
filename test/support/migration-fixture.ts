// What the format-migration tests (format-migration, format2-migration, format3-migration) share:
// copies of a committed fixture store written by an older format's code, the check that a copy
// opened by this code answers as that code recorded and verifies clean, a migration killed in a
// child after a number of batches, and a read of the commit log whatever the format.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { open } from "lmdb";
import { expect } from "vitest";
import type { ProgressSink } from "../../core/progress.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { verifyDataDir } from "../../runtime/verify/verify-dir.js";
import { answers, withF32Vectors } from "./fixture-answers.js";
import { fixtureSchema } from "./format1-fixture.js";
import { removeDir, tempDir } from "./store-fixtures.js";

const FIXTURES = path.join(import.meta.dirname, "../fixtures");

/**
 * Keys the 4 → 5 step writes for any fixture store (the fixtures share one generator): the
 * entries of nodes (26), edges (7), index (25), edge_unique (22), vector_ids (6) and bm25_docs
 * (26) twice each (into the scratch database and back), then the values of unique (12) and
 * bm25_ids (26) in place.
 */
export const FORMAT4_KEYS = 2 * (26 + 7 + 25 + 22 + 6 + 26) + 12 + 26;

/** The progress task of the 4 → 5 step, as a recording sink sees it. */
export const FORMAT4_TASK = {
  label: "migrating the store from format 4 to 5",
  unit: "entries",
  total: undefined,
  done: FORMAT4_KEYS,
  finished: true,
};

/** `strand verify` of any fixture store once migrated: the fixtures share one generator. */
export const VERIFIED = {
  ok: true,
  report: {
    counts: {
      nodes: 20,
      edges: 75,
      vectors: 6,
      indexEntries: 25,
      uniqueClaims: 34,
      adjacencyEntries: 150,
      bm25Documents: 26,
      bm25Postings: 126,
      vectorIndexes: 1,
    },
    disagreements: [],
    skipped: [],
  },
};

/** One fixture (test/fixtures/<name>: its store and the answers recorded from the code that wrote it). */
export class MigrationFixture {
  readonly store: string;
  /** answers() as the older code gave them; vectors at f32 precision since format 4 (recorded as f64). */
  readonly expected: unknown;
  private readonly work: string;
  private made = 0;

  constructor(name: "format1" | "format2" | "format3" | "format4") {
    this.store = path.join(FIXTURES, name, "store");
    this.expected = withF32Vectors(JSON.parse(fs.readFileSync(path.join(FIXTURES, name, "answers.json"), "utf8")));
    this.work = tempDir(`strand-${name}-`);
  }

  /** A fresh copy of the fixture store to migrate. */
  copy(): string {
    const dir = this.scratch("copy");
    fs.cpSync(this.store, dir, { recursive: true });
    return dir;
  }

  /** A new path under this fixture's scratch directory (not created). */
  scratch(kind: string): string {
    return path.join(this.work, `${kind}-${this.made++}`);
  }

  /** Opens (migrating) `dir`: its answers are the recorded ones and it verifies clean; what the migration reported. */
  async openAndCheck(dir: string, progress?: ProgressSink): Promise<GraphStore["formatMigration"]> {
    const store = GraphStore.open({ path: dir, schema: fixtureSchema(), ...(progress ? { progress } : {}) });
    const got = store.read((db) => answers(db));
    const outcome = store.formatMigration;
    await store.close();
    expect(got).toEqual(this.expected);
    expect(await verifyDataDir(dir)).toEqual(VERIFIED);
    return outcome;
  }

  remove(): void {
    removeDir(this.work);
  }
}

/** Runs the migration in a child that kills itself after `killAfter` batches of `batch` keys. */
export function interruptedMigration(dir: string, batch: number, killAfter: number): void {
  const dist = path.join(import.meta.dirname, "../../dist");
  const child = path.join(import.meta.dirname, "format-migration-child.mjs");
  const r = spawnSync(process.execPath, [child, dist, dir, String(batch), String(killAfter)], { encoding: "utf8" });
  expect({ signal: r.signal, stderr: r.stderr }).toEqual({ signal: "SIGKILL", stderr: "" });
}

/** The commit log's sequence numbers and each entry's number of changes (read whatever the format). */
export function commitLog(dir: string): [number, number][] {
  const env = open({ path: dir, noSubdir: false, readOnly: true, maxDbs: 32 });
  try {
    // Plain msgpack maps, as runtime/store/dbs.ts opens the log (lmdb's typings list `encoder` for open() only).
    const plainMaps: object = { encoder: { useRecords: false } };
    const log = env.openDB<{ ops: unknown[] }, number>({ name: "commit_log", ...plainMaps });
    return [...log.getRange()].map(({ key, value }) => [key, value.ops.length]);
  } finally {
    void env.close();
  }
}

export interface RecordedTask {
  label: string;
  unit: string;
  total: number | undefined;
  done: number;
  finished: boolean;
}

/** A progress sink that keeps every task it is given, with what was reported to it. */
export function recordingProgress(): { sink: ProgressSink; tasks: RecordedTask[] } {
  const tasks: RecordedTask[] = [];
  return {
    tasks,
    sink: {
      start(label, unit, total) {
        const t = { label, unit, total, done: 0, finished: false };
        tasks.push(t);
        return { advance: (n) => (t.done += n), finish: () => (t.finished = true) };
      },
    },
  };
}
