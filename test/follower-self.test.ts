// A replica told to follow itself (runtime/replication/follower.ts): the "leader" it reaches is a
// replica whose own leader is that same URL, and it stops following, saying so, instead of
// reporting "following" with no lag for ever.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test, vi } from "vitest";
import { Follower } from "../runtime/replication/follower.js";
import type { ReplicationStatus, StoreIdentity } from "../runtime/replication/protocol.js";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

const identity = { fingerprint: "f" } as unknown as StoreIdentity;

test("a replica whose --follow URL answers as a replica of that same URL stops, naming it", async () => {
  let url = "";
  const server = http.createServer((_req, res) => {
    const status: ReplicationStatus = {
      role: "replica",
      seq: 3,
      oldest: 1,
      identity,
      following: { leader: url, leaderSeq: 3, lagMs: 0, state: "following" },
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fatal: string[] = [];
  const follower = new Follower({
    leader: { url, key: undefined },
    identity,
    target: () => {
      throw new Error("nothing is applied");
    },
    reseed: async () => {},
    fatal: (message) => fatal.push(message),
    warn: () => {},
  });
  follower.start();
  const deadline = Date.now() + 5_000;
  while (fatal.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(fatal).toEqual([
    `${url} is a replica following ${url}, that is, itself (is --follow this server's own URL?): give the leader's URL`,
  ]);
  expect(follower.state).toBe("stopped");
  await follower.stop();
});

test("stop() cuts short the pause before a retry: a promoted replica takes writes at once, not after the pause", async () => {
  // Only setTimeout is faked: the retry pause never ends on its own, so stop() must end it.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    let warned: () => void = () => {};
    const retrying = new Promise<void>((resolve) => {
      warned = resolve;
    });
    const follower = new Follower({
      leader: { url: "http://127.0.0.1:1", key: undefined },
      identity,
      target: () => {
        throw new Error("nothing is applied");
      },
      reseed: async () => {},
      fatal: () => {},
      warn: () => warned(),
    });
    follower.start();
    await retrying; // its first attempt failed (nothing listens on port 1): it now pauses
    expect(follower.state).toBe("retrying");
    await follower.stop();
    expect(follower.state).toBe("stopped");
  } finally {
    vi.useRealTimers();
  }
});
