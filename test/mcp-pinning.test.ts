// MCP pinning (issue 15): an /mcp connection remembers the highest commit sequence it observed —
// the node's at init, after each call (its writes included) — and a call on a node behind that
// waits for it (as long as Strand-After would), else answers 503 REPLICA_BEHIND. The node's log
// here is a stand-in whose sequence the test sets (a replica re-seeded onto a shorter history).
import { afterEach, describe, expect, it } from "vitest";
import type { StoreIdentity } from "../runtime/replication/protocol.js";
import type { LogView, ReplicationNode } from "../server/replication/node.js";
import { err, type McpFixture, openFixture } from "./support/mcp-fixture.js";

const identity: StoreIdentity = { format: 2, schemaVersion: null, fingerprint: "0123456789abcdef", strand: "test" };

/** A log whose sequence the test moves; waiters are answered as it moves. */
class MovableLog implements LogView {
  private waiters: { seq: number; done: (reached: boolean) => void }[] = [];
  constructor(private seq: number) {}
  get committed(): number {
    return this.seq;
  }
  moveTo(seq: number): void {
    this.seq = seq;
    for (const w of this.waiters.filter((w) => w.seq <= seq)) w.done(true);
    this.waiters = this.waiters.filter((w) => w.seq > seq);
  }
  oldest(): number | null {
    return null;
  }
  timeOf(): number | null {
    return null;
  }
  read(): "gone" {
    return "gone";
  }
  waitFor(seq: number, timeoutMs: number): Promise<boolean> {
    if (seq <= this.seq) return Promise.resolve(true);
    return new Promise((done) => {
      const waiter = { seq, done };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        done(false);
      }, timeoutMs);
    });
  }
}

let fixture: McpFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

async function open(log: MovableLog, afterTimeoutMs: number): Promise<McpFixture> {
  const node: ReplicationNode = {
    log: () => log,
    backup: () => Promise.reject(new Error("no backup here")),
    identity,
    following: () => null,
    key: undefined,
    afterTimeoutMs,
  };
  fixture = await openFixture({ replication: node });
  return fixture;
}

describe("an /mcp connection pinned to the sequences it saw", () => {
  it("waits on a node that went behind its init, and answers 503 REPLICA_BEHIND when it is not back in time", async () => {
    const log = new MovableLog(7);
    const f = await open(log, 50);
    const id = await f.init();
    log.moveTo(4); // re-seeded onto a shorter history
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(
      err(
        503,
        "REPLICA_BEHIND",
        "this node has applied sequence 4, not yet 7, which this MCP connection has already seen, after waiting 50 ms; retry, or connect to the leader",
      ),
    );
    // Another connection, made now, sees the node as it is.
    const fresh = await f.init();
    expect((await f.tool("n_from_type", { connection_id: fresh, data: { node_type: "User" } })).status).toBe(200);
    log.moveTo(7);
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual({
      status: 200,
      body: { connection_id: id, count: 4 },
    });
  });

  it("holds a call until the node reaches the pin, within the bound", async () => {
    const log = new MovableLog(3);
    const f = await open(log, 10_000);
    const id = await f.init();
    log.moveTo(1);
    const call = f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    setTimeout(() => log.moveTo(3), 100);
    expect(await call).toEqual({ status: 200, body: { connection_id: id, count: 4 } });
  });

  it("raises the pin with the connection's writes", async () => {
    const log = new MovableLog(2);
    const f = await open(log, 50);
    const id = await f.init();
    // The write commits; this stand-in log says it reached sequence 5 with it.
    const wrote = f.tool("AddPostMcp", { connection_id: id, data: { title: "Pinned" } });
    log.moveTo(5);
    expect((await wrote).status).toBe(200);
    log.moveTo(4);
    expect((await f.tool("n_from_type", { connection_id: id, data: { node_type: "Post" } })).body).toEqual({
      error:
        "this node has applied sequence 4, not yet 5, which this MCP connection has already seen, after waiting 50 ms; retry, or connect to the leader",
      code: "REPLICA_BEHIND",
    });
  });
});
