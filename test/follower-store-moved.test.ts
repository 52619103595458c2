// A deposed leader begins to follow while its own last writes are still settling: its first
// poll asks from the sequence its log had flushed, those writes then commit, and the new
// leader's entries no longer start right after the store. That used to stop the follower for
// good ("log entries start at 189, but the store is at 192": the failover campaign found such a
// node stuck, never following again). Nothing is applied; the follower asks again from where
// its store is, and the leader, holding another history there, answers 410: a re-seed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { Follower } from "../runtime/replication/follower.js";
import type { StoreIdentity } from "../runtime/replication/protocol.js";
import { startServer } from "../server/index.js";
import type { ReplicationNode } from "../server/replication/node.js";
import { queries, schema } from "./support/mcp-fixture.js";

const identity: StoreIdentity = { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };
const dir = mkdtempSync(join(tmpdir(), "strand-follower-moved-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a store that moves while the poll waits is asked for again, not a reason to stop following", async () => {
  const leader = GraphStore.open({ path: join(dir, "leader"), schema });
  const replica = GraphStore.open({ path: join(dir, "replica"), schema });
  await leader.write((db) => db.addNode("Post", { title: "shared" }));
  const node: ReplicationNode = {
    log: () => leader.log,
    backup: (out) => leader.backup(out),
    identity,
    following: () => null,
    key: "rk",
    afterTimeoutMs: 50,
  };
  const server = await startServer({ store: leader, queries, schema, replication: node, port: 0 });
  const events: string[] = [];
  let reseeded: () => void = () => {};
  const reseed = new Promise<void>((resolve) => {
    reseeded = resolve;
  });
  const follower = new Follower({
    leader: { url: `http://127.0.0.1:${server.port}`, key: "rk" },
    identity,
    target: () => replica,
    // Recorded only: the test stops the follower once it has asked.
    reseed: async () => {
      events.push("re-seed asked");
      reseeded();
    },
    fatal: (message) => events.push(`fatal: ${message}`),
    warn: (message) => events.push(`warn: ${message.replace(/\d+ ms$/, "N ms")}`),
    waitMs: 30_000,
  });
  try {
    follower.start();
    // It holds the shared entry, then long-polls after 1.
    await replica.log.waitFor(1, 30_000);
    const polled = new Promise<void>((resolve) => {
      const check = (): void => {
        if (leader.log.committed === 1 && replica.log.committed === 1) resolve();
        else setTimeout(check, 10);
      };
      check();
    });
    await polled;
    // The replica's own late write settles (another history), then the leader writes entry 2,
    // which answers the waiting poll.
    await replica.write((db) => db.addNode("Post", { title: "the deposed leader's own" }));
    await leader.write((db) => db.addNode("Post", { title: "the new leader's" }));
    await reseed;
    await follower.stop();
    expect(events.slice(0, 3)).toEqual([
      `warn: following http://127.0.0.1:${server.port}: log entries start at 2, but the store is at 2 (it moved while the poll waited); asking again; trying again in N ms`,
      "warn: the leader no longer keeps its log after 2 (past its retention, or another history): re-seeding from its backup",
      "re-seed asked",
    ]);
    expect(events.filter((e) => e.startsWith("fatal"))).toEqual([]);
  } finally {
    await follower.stop();
    await server.close();
    await leader.close();
    await replica.close();
  }
}, 60_000);
