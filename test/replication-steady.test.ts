// A replica under ordinary, steady writes stays a replica: it never gets a 410 and never re-seeds.
// The leader's log answers used to carry entries committed but not yet flushed, past its
// `committed` sequence; the replica's next poll then named a sequence past the leader's, which the
// divergence check took for another history (a 410, and a whole re-seed every few seconds at
// ~40 writes/s). Real processes (built dist/cli/strand.js): a leader, one `--follow` replica, 2,000
// writes, 4 in flight.
import { afterAll, describe, expect, it } from "vitest";
import { type StrandServer, startStrand } from "./support/server.js";

const KEY = "steady-replication-key";
const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

async function start(extraArgs: string[]): Promise<StrandServer> {
  const server = await startStrand({ extraArgs: ["--log-level", "warn", "--replication-key", KEY, ...extraArgs] });
  servers.push(server);
  return server;
}

async function addUser(leader: StrandServer, i: number): Promise<number> {
  const res = await fetch(`${leader.url}/AddUser`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ handle: `u${i}`, name: `User ${i}`, city: "Lyon", age: i % 90 }),
  });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return Number(res.headers.get("strand-commit"));
}

describe("a replica under steady writes", () => {
  it("follows 2,000 writes (4 in flight) without a 410 or a re-seed, and ends holding all of them", async () => {
    const leader = await start([]);
    const replica = await start(["--follow", leader.url, "--after-timeout", "60000"]);
    let next = 0;
    let last = 0;
    const writer = async (): Promise<void> => {
      while (next < 2_000) last = Math.max(last, await addUser(leader, next++));
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    // Read on the replica after the last write: it waits until the replica holds it.
    const res = await fetch(`${replica.url}/CountUsers`, {
      method: "POST",
      headers: { "content-type": "application/json", "strand-after": String(last) },
      body: "{}",
    });
    expect([res.status, await res.json()]).toEqual([200, { total: 2_000 }]);
    expect(replica.output()).not.toContain("re-seed");
    expect(replica.output()).not.toContain("no longer keeps its log");
  }, 180_000);
});
