// A replica's polls of its leader's tenant feed are its acknowledgements of the tenants' writes
// (server/cluster/in-sync.ts counts them with synchronous replicas): it asks from a version only
// once every tenant that version named is in step here. Scripted against a leader that answers
// each request from a list: a tenant the leader dropped after naming it (404 on its log) leaves
// the replica at the version it had, asking again at once; once in step, the next poll names the
// new version and the feed, as the group member it is.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { COMMIT_HEADER, encodeFrames, LOG_FIRST_HEADER, SCHEMA_HEADER } from "../runtime/replication/protocol.js";
import type { LogPosition, TenantFeedAnswer } from "../runtime/replication/protocol.js";
import { type SyncedStore, type SyncedTenants, TenantSync } from "../server/tenants/tenant-sync.js";

interface Scripted {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

let server: Server | null = null;
let sync: TenantSync<FakeStore> | null = null;

afterEach(async () => {
  await sync?.stop();
  sync = null;
  await new Promise<void>((done) => (server === null ? done() : server.close(() => done())));
  server = null;
});

/** A leader that answers the requests in order from `script`, recording each URL; past the script it holds the request. */
async function scriptedLeader(script: Scripted[]): Promise<{ url: string; asked: string[]; held: Promise<void> }> {
  const asked: string[] = [];
  let heldDone: () => void = () => {};
  const held = new Promise<void>((done) => (heldDone = done));
  server = createServer((req, res) => {
    asked.push(req.url ?? "");
    const next = script.shift();
    if (next === undefined) {
      heldDone();
      req.on("close", () => res.destroy());
      return;
    }
    res.writeHead(next.status, next.headers ?? { "content-type": "application/json" });
    res.end(next.body);
  });
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, held };
}

class FakeStore implements SyncedStore {
  at: LogPosition = { seq: 0, time: null };
  position(): LogPosition {
    return this.at;
  }
  timeOf(): number | null {
    return null;
  }
  async applyLogEntries(first: number, frames: readonly Uint8Array[]): Promise<number> {
    this.at = { seq: first + frames.length - 1, time: 20 };
    return this.at.seq;
  }
}

function fakeTenants(store: FakeStore): SyncedTenants<FakeStore> {
  const held = { store };
  return {
    names: () => ["acme"],
    exists: () => true,
    dirOf: () => "/nonexistent",
    positionOf: () => store.position(),
    acquire: async () => held,
    release: () => {},
    replace: async () => {},
    drop: async () => true,
    setAside: async () => null,
  };
}

const feedAnswer = (answer: TenantFeedAnswer): Scripted => ({ status: 200, body: JSON.stringify(answer) });

describe("a replica's tenant sync", () => {
  it("asks from a version only once every tenant it named is in step, as its group member", async () => {
    const leader = await scriptedLeader([
      feedAnswer({ feed: "F", version: 1, full: true, tenants: [{ name: "acme", at: { seq: 1, time: 10 } }], dropped: [] }),
      // Dropped on the leader after the answer named it.
      { status: 404, body: JSON.stringify({ error: 'no tenant "acme"', code: "UNKNOWN_TENANT" }) },
      // Created again there: the replica asked again at once, from where it was.
      feedAnswer({ feed: "F", version: 3, full: true, tenants: [{ name: "acme", at: { seq: 2, time: 20 } }], dropped: [] }),
      {
        status: 200,
        body: encodeFrames([new Uint8Array([1]), new Uint8Array([2])]),
        headers: {
          "content-type": "application/octet-stream",
          [LOG_FIRST_HEADER]: "1",
          [COMMIT_HEADER]: "2",
          [SCHEMA_HEADER]: "fp",
        },
      },
    ]);
    const store = new FakeStore();
    sync = new TenantSync({
      leader: { url: leader.url, key: "k", memberKey: "mk" },
      tenants: fakeTenants(store),
      fingerprint: "fp",
      warn: () => {},
      waitMs: 50,
      member: "m1",
    });
    sync.start();
    await leader.held;
    expect(leader.asked.map((url) => url.replace(/follower=[0-9a-f-]+/, "follower=ID"))).toEqual([
      "/replication/tenants?since=0&wait=50&member=m1",
      "/t/acme/replication/log?after=0&wait=0&follower=ID",
      "/replication/tenants?since=0&wait=0&member=m1",
      "/t/acme/replication/log?after=0&wait=0&follower=ID",
      // In step at version 3: this poll is the acknowledgement of everything up to it.
      "/replication/tenants?since=3&wait=50&member=m1&feed=F",
    ]);
    expect(store.position()).toEqual({ seq: 2, time: 20 });
  });
});
