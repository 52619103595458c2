// Long work at open reports to GraphStoreOptions.progress: a vector index rebuilt from LMDB, the
// keyword index rebuilt, records migrated or revalidated. Work with nothing to do still starts a
// task (with its total); the CLI's skipIdleTasks keeps those off the terminal.
import fs from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { cliProgress } from "../cli/progress/progress.js";
import { skipIdleTasks } from "../cli/progress/skip-idle.js";
import type { ProgressSink } from "../core/progress.js";
import type { SchemaDescriptor } from "../core/schema.js";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { smallGraph, verifySchema } from "./support/verify-fixtures.js";

const work = tempDir("strand-open-progress-");
afterAll(() => removeDir(work));

interface Recorded {
  label: string;
  unit: string;
  total: number | undefined;
  done: number;
  finished: boolean;
}

function recording(): { sink: ProgressSink; tasks: Recorded[] } {
  const tasks: Recorded[] = [];
  return {
    tasks,
    sink: {
      start(label, unit, total) {
        const t: Recorded = { label, unit, total, done: 0, finished: false };
        tasks.push(t);
        return { advance: (n) => (t.done += n), finish: () => (t.finished = true) };
      },
    },
  };
}

/** verifySchema with a new field on User that has a DEFAULT: every User is revalidated at open. */
const withNewField: SchemaDescriptor = {
  ...verifySchema,
  nodes: verifySchema.nodes.map((n) =>
    n.name !== "User"
      ? n
      : {
          ...n,
          fields: [
            ...n.fields,
            { name: "score2", type: { kind: "scalar", name: "F64" }, index: "none", default: { kind: "literal", value: 1 } },
          ],
        },
  ),
};

describe("progress at open", () => {
  it("reports vector and keyword index rebuilds and revalidated records", async () => {
    const dir = path.join(work, "store");
    const first = recording();
    const store = GraphStore.open({ path: dir, schema: verifySchema, progress: first.sink });
    await smallGraph(store);
    await store.close();
    // A new store: the keyword index is built (from nothing); nothing else runs.
    expect(first.tasks).toEqual([{ label: "rebuild keyword index", unit: "records", total: 0, done: 0, finished: true }]);

    // Without its HNSW files the vector index is rebuilt; a new stemmer rebuilds the keyword index;
    // a new field with a DEFAULT revalidates User.
    fs.rmSync(path.join(dir, "vectors"), { recursive: true });
    const second = recording();
    const reopened = GraphStore.open({ path: dir, schema: withNewField, bm25Stemmer: "english", progress: second.sink });
    await reopened.close();
    expect(second.tasks).toEqual([
      { label: "revalidate N::User", unit: "records", total: 2, done: 2, finished: true },
      { label: "rebuild vector index V::Doc", unit: "vectors", total: 1, done: 1, finished: true },
      { label: "rebuild keyword index", unit: "records", total: 4, done: 4, finished: true },
    ]);
  });

  it("shows only tasks that did work, one summary line each off a terminal", async () => {
    const dir = path.join(work, "cli");
    const store = GraphStore.open({ path: dir, schema: verifySchema });
    await smallGraph(store);
    await store.close();
    fs.rmSync(path.join(dir, "vectors"), { recursive: true });
    const stream = new PassThrough();
    let text = "";
    stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const progress = skipIdleTasks(cliProgress({ stream: stream as unknown as NodeJS.WriteStream, tty: false }));
    await GraphStore.open({ path: dir, schema: verifySchema, progress }).close();
    expect(text).toBe("rebuild vector index V::Doc: 1 vectors in 0s\n");
  });
});
