// The commit log on demand (runtime/commit-log/log-readers.ts, `strand serve`'s default outside a
// failover group): a write records its changes only while a follower may ask for them; with
// nobody it leaves a hollow entry, the log keeps the newest entry alone, and a follower behind a
// hollow entry is told to seed again. A follower asking, or a seed handed out, turns recording on
// and keeps the entries from its position; one not heard of within the window counts no more.
// Over the replication routes in process, with a store whose grace after opening is 0.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { LogReaders } from "../runtime/commit-log/log-readers.js";
import { GraphStore } from "../runtime/graph-store.js";
import type { StoreDbs } from "../runtime/store/dbs.js";
import { decodeFrames, type StoreIdentity } from "../runtime/replication/protocol.js";
import { createApp } from "../server/index.js";
import type { ReplicationNode } from "../server/replication/node.js";
import { queries, schema } from "./support/mcp-fixture.js";

const identity: StoreIdentity = { format: 1, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };
const KEY = { "x-replication-key": "rk" };
const WINDOW = 60_000;

const opened: { store: GraphStore; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function serve(): { store: GraphStore; app: Hono } {
  const dir = mkdtempSync(join(tmpdir(), "strand-log-on-demand-"));
  const store = GraphStore.open({ path: dir, schema, logOnDemand: { graceMs: 0, windowMs: WINDOW } });
  opened.push({ store, dir });
  const node: ReplicationNode = {
    log: () => store.log,
    backup: (out) => store.backup(out),
    identity,
    following: () => null,
    key: "rk",
    afterTimeoutMs: 50,
  };
  return { store, app: createApp({ store, queries, schema, replication: node }) };
}

const addPost = async (app: Hono, title: string) => {
  const res = await app.request("/AddPost", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  expect(res.status).toBe(200);
};

async function logAfter(app: Hono, after: number, follower = "f1"): Promise<{ status: number; entries: number; body?: unknown }> {
  const res = await app.request(`/replication/log?after=${after}&follower=${follower}`, { headers: KEY });
  if (res.status !== 200) return { status: res.status, entries: 0, body: await res.json() };
  return { status: 200, entries: decodeFrames(new Uint8Array(await res.arrayBuffer())).length };
}

/** Every entry kept: [seq, the number of changes it holds]. */
function kept(store: GraphStore): Array<[number, number]> {
  const dbs = (store as unknown as { dbs: StoreDbs }).dbs;
  return [...dbs.commitLog.getRange({})].map(({ key, value }) => [key, value.ops.length]);
}

describe("the commit log on demand", () => {
  it("with no follower, writes leave hollow entries, only the newest is kept, and a follower behind is told to seed again", async () => {
    const { store, app } = serve();
    for (const title of ["a", "b", "c"]) await addPost(app, title);
    expect(store.log.committed).toBe(3);
    expect(store.log.oldest()).toBe(3);
    expect(await logAfter(app, 0)).toEqual({
      status: 410,
      entries: 0,
      body: { error: "entry 1 is past this node's log retention (the oldest kept is 3); seed again from its backup", code: "LOG_GONE" },
    });
  });

  it("records and keeps what a follower asks for from the moment it asks, and stops once it is gone past the window", async () => {
    const { store, app } = serve();
    await addPost(app, "before");
    // The follower is at 1 (seeded from a backup there, say) and asks for what follows.
    expect(await logAfter(app, 1)).toEqual({ status: 200, entries: 0 });
    for (const title of ["x", "y"]) await addPost(app, title);
    expect(await logAfter(app, 1)).toEqual({ status: 200, entries: 2 });
    // Entry 1 is hollow (no changes); 2 and 3 hold their writes' changes.
    expect(kept(store).map(([seq, changes]) => [seq, changes > 0])).toEqual([
      [1, false],
      [2, true],
      [3, true],
    ]);
    // The follower moves on to 3: the background trim drops what is below it.
    expect(await logAfter(app, 3)).toEqual({ status: 200, entries: 0 });
    await store.log.trim();
    expect(kept(store).map(([seq]) => seq)).toEqual([3]);
    // Heard of last longer ago than the window: nobody needs the log, the next write is hollow.
    store.log.askedBy("follower:f1", 3, Date.now() - WINDOW - 1);
    await addPost(app, "z");
    expect(kept(store)).toEqual([[4, 0]]);
    expect((await logAfter(app, 3)).status).toBe(410);
  });

  it("records from a seed handed out: its replica finds every entry after the backup's sequence", async () => {
    const { store, app } = serve();
    await addPost(app, "hollow");
    const seed = await app.request("/replication/backup", { headers: KEY });
    expect(seed.status).toBe(200);
    await seed.arrayBuffer();
    await addPost(app, "after the seed");
    expect(await logAfter(app, 1, "new-replica")).toEqual({ status: 200, entries: 1 });
    expect(store.log.recording()).toBe(true);
  });

  it("refuses a follower id that is not one", async () => {
    const { app } = serve();
    expect((await logAfter(app, 0, "no%20spaces")).body).toEqual({
      error: "follower must be 1 to 64 letters, digits, '.', '_' or '-', got \"no spaces\"",
      code: "BAD_REQUEST",
    });
  });
});

describe("the grace after opening", () => {
  it("is given only to a store whose newest entry was recorded: it had a follower when it stopped", async () => {
    const dir = mkdtempSync(join(tmpdir(), "strand-log-grace-"));
    const policy = { graceMs: 60_000, windowMs: WINDOW };
    const add = (store: GraphStore, title: string) => store.write((db) => db.addNode("Post", { title }));
    let store = GraphStore.open({ path: dir, schema, logOnDemand: policy });
    // A new store had no follower: no grace, its first write is hollow.
    expect(store.log.recording()).toBe(false);
    await add(store, "a");
    store.log.askedBy("follower:f", 1);
    await add(store, "b");
    await store.close();
    store = GraphStore.open({ path: dir, schema, logOnDemand: policy });
    // Its newest entry was recorded: a follower may come back, so it records for the grace.
    expect(store.log.recording()).toBe(true);
    await store.close();
    store = GraphStore.open({ path: dir, schema, logOnDemand: { ...policy, graceMs: 0 } });
    await add(store, "c");
    await store.close();
    store = GraphStore.open({ path: dir, schema, logOnDemand: policy });
    // Its newest entry is hollow: nobody was following when it stopped.
    expect(store.log.recording()).toBe(false);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("LogReaders", () => {
  const policy = { windowMs: 1_000, graceMs: 500 };

  it("is needed during the grace after opening, then only while a follower or seed is within the window", () => {
    const readers = new LogReaders(policy, 0);
    expect([readers.needed(0), readers.floor(0)]).toEqual([true, null]);
    expect([readers.needed(500), readers.floor(500)]).toEqual([false, Number.POSITIVE_INFINITY]);
    readers.asked("a", 7, 600);
    readers.seeded(4, 700);
    readers.asked("b", 9, 800);
    expect([readers.needed(900), readers.floor(900), readers.count(900)]).toEqual([true, 4, 3]);
    // The seed (at 700) and a (at 600) age out; b (at 800) is the slowest left.
    expect([readers.floor(1_750), readers.count(1_750)]).toEqual([9, 1]);
    readers.asked("b", 12, 1_760);
    expect(readers.floor(1_770)).toBe(12);
    expect([readers.needed(2_761), readers.floor(2_761)]).toEqual([false, Number.POSITIVE_INFINITY]);
  });

  it("with a live shared reader (a replica following every tenant), records everything and trims by the retention alone", () => {
    let live = true;
    const readers = new LogReaders({ ...policy, shared: { live: () => live } }, 0);
    expect([readers.needed(600), readers.floor(600)]).toEqual([true, null]);
    // A follower of this store that asked still sets the floor: entries below it are not asked for.
    readers.asked("a", 7, 700);
    expect([readers.needed(800), readers.floor(800)]).toEqual([true, 7]);
    live = false;
    expect([readers.needed(1_800), readers.floor(1_800)]).toEqual([false, Number.POSITIVE_INFINITY]);
  });
});
