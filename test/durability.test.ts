// Durability of acknowledged writes across a graceful restart and across `kill -9` of a running
// `strand serve`; after each, the stopped data directory passes the integrity check.
//
// The kill test is seeded: its stream of writes (users, follows and posts among a first batch of
// users) and its kill point (a number of acknowledged writes) come from one seed; a failing run
// prints it, and `STRAND_CRASH_SEED=<seed> npx vitest run test/durability.test.ts` replays the
// same requests, killed after the same number of acknowledgements (which requests are in flight
// then still varies with timing).
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { between, crashSeed } from "./support/crash-seed.js";
import { call, startStrand, tempDir, type StrandServer } from "./support/server.js";

const started: StrandServer[] = [];
const dirs: string[] = [];

async function start(dataDir: string): Promise<StrandServer> {
  const server = await startStrand({ dataDir });
  started.push(server);
  return server;
}

afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface User {
  id: string;
  handle: string;
}

/** The stopped data directory passes `strand verify`'s check. */
async function expectVerifiesClean(dataDir: string): Promise<void> {
  expect(await verifyDataDir(dataDir)).toMatchObject({ ok: true, report: { disagreements: [] } });
}

type Request =
  | { query: "AddUser"; handle: string; age: number }
  | { query: "Follow"; from: number; to: number; weight: number }
  | { query: "WritePost"; author: number; title: string };

/** Requests of the kill test: new users mostly; follows and posts among the first FIRST_USERS users. */
const FIRST_USERS = 20;
function nextRequest(random: () => number, n: number): Request {
  const r = random();
  if (r < 0.7) return { query: "AddUser", handle: `crash${n}`, age: between(random, 0, 100) };
  if (r < 0.85)
    return { query: "Follow", from: between(random, 0, FIRST_USERS), to: between(random, 0, FIRST_USERS), weight: between(random, 1, 10) };
  return { query: "WritePost", author: between(random, 0, FIRST_USERS), title: `post ${n}` };
}

describe("durability", () => {
  it("keeps data across a graceful restart", async () => {
    const dataDir = tempDir("strand-restart-");
    dirs.push(dataDir);
    const first = await start(dataDir);
    const users: User[] = [];
    for (const handle of ["r1", "r2", "r3"]) {
      const reply = await call(first, "AddUser", { handle, name: handle.toUpperCase(), city: "Kyiv", age: 30 });
      expect(reply.status).toBe(200);
      users.push((reply.body as { user: User }).user);
    }
    const edge = await call(first, "Follow", { from: users[0]!.id, to: users[1]!.id, weight: 3 });
    expect(edge.status).toBe(200);

    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain("strand: SIGTERM, shutting down");

    const second = await start(dataDir);
    for (const user of users) expect(await call(second, "GetUser", { id: user.id })).toEqual({ status: 200, body: { user } });
    expect(await call(second, "CountUsers")).toEqual({ status: 200, body: { total: 3 } });
    expect(await call(second, "FollowEdges", { id: users[0]!.id })).toEqual({
      status: 200,
      body: { outgoing: [(edge.body as { follows: unknown }).follows], incoming: [] },
    });
    // The unique index survived too.
    expect((await call(second, "AddUser", { handle: "r1", name: "again", city: "Kyiv", age: 1 })).status).toBe(409);
    expect(await second.stop("SIGINT")).toBe(0);
    expect(second.output()).toContain("strand: SIGINT, shutting down");
    await expectVerifiesClean(dataDir);
  });

  it("finishes in-flight writes on SIGTERM before closing the store", async () => {
    const dataDir = tempDir("strand-drain-");
    dirs.push(dataDir);
    const server = await start(dataDir);
    const outcomes = Array.from({ length: 40 }, (_, i) =>
      call(server, "AddUser", { handle: `drain${i}`, name: "Drain", city: "Riga", age: i }).catch(() => null),
    );
    await outcomes[0];
    const exit = server.stop();
    const replies = await Promise.all(outcomes);
    expect(await exit).toBe(0);
    // Every request either completed normally or never reached a handler; none saw a store error.
    const acknowledged = replies.filter((r) => r !== null && r.status === 200).map((r) => (r!.body as { user: User }).user);
    for (const r of replies) if (r !== null) expect(r.status).toBe(200);
    expect(acknowledged.length).toBeGreaterThan(0);

    const restarted = await start(dataDir);
    for (const user of acknowledged) expect(await call(restarted, "GetUser", { id: user.id })).toEqual({ status: 200, body: { user } });
    expect(await restarted.stop()).toBe(0);
    await expectVerifiesClean(dataDir);
  });

  it("keeps every acknowledged write when the process is killed with SIGKILL mid-stream", async () => {
    const { random } = crashSeed("test/durability.test.ts");
    const killAt = between(random, 150, 250);
    const dataDir = tempDir("strand-crash-");
    dirs.push(dataDir);
    const server = await start(dataDir);
    const first: User[] = [];
    for (let i = 0; i < FIRST_USERS; i++) {
      const reply = await call(server, "AddUser", { handle: `first${i}`, name: "First", city: "Somewhere", age: i });
      first.push((reply.body as { user: User }).user);
    }
    const acknowledged: User[] = [];
    const follows: { id: string; from_node: string }[] = [];
    const posts: { id: string; author: string }[] = [];
    let sent = 0;
    let stopped = false;

    // Requests are drawn in the order they are sent, so the stream is the same on every run.
    const writer = async (): Promise<void> => {
      while (!stopped) {
        const request = nextRequest(random, sent++);
        try {
          if (request.query === "AddUser") {
            const reply = await call(server, "AddUser", { handle: request.handle, name: "Crash", city: "Nowhere", age: request.age });
            if (reply.status !== 200) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
            acknowledged.push((reply.body as { user: User }).user);
          } else if (request.query === "Follow") {
            const reply = await call(server, "Follow", {
              from: first[request.from]!.id,
              to: first[request.to]!.id,
              weight: request.weight,
            });
            if (reply.status !== 200) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
            follows.push((reply.body as { follows: { id: string; from_node: string } }).follows);
          } else {
            const author = first[request.author]!.id;
            const reply = await call(server, "WritePost", { author, title: request.title, body: "text" });
            if (reply.status !== 200) throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
            posts.push({ id: (reply.body as { post: { id: string } }).post.id, author });
          }
        } catch (error) {
          if (stopped) return; // the connection died with the server: not acknowledged
          throw error;
        }
      }
    };
    const writers = Array.from({ length: 8 }, () => writer());

    // Let a good number of writes be acknowledged, then kill the server while requests are in flight.
    while (acknowledged.length + follows.length + posts.length < killAt) await new Promise((r) => setTimeout(r, 5));
    stopped = true;
    await server.kill();
    await Promise.all(writers);
    expect(server.child.signalCode).toBe("SIGKILL");

    const restarted = await start(dataDir);
    const missing: string[] = [];
    for (const user of acknowledged) {
      const reply = await call(restarted, "GetUser", { id: user.id });
      if (reply.status !== 200 || JSON.stringify((reply.body as { user: unknown }).user) !== JSON.stringify(user))
        missing.push(user.handle);
    }
    // One read per first user: the follows and posts it holds now.
    const outgoing = new Map<string, Set<string>>();
    const written = new Map<string, Set<string>>();
    for (const user of first) {
      const edges = (await call(restarted, "FollowEdges", { id: user.id })).body as { outgoing: { id: string }[] };
      outgoing.set(user.id, new Set(edges.outgoing.map((e) => e.id)));
      const ofUser = (await call(restarted, "PostsOf", { id: user.id })).body as { posts: { id: string }[] };
      written.set(user.id, new Set(ofUser.posts.map((p) => p.id)));
    }
    for (const follow of follows) if (!outgoing.get(follow.from_node)!.has(follow.id)) missing.push(`follows ${follow.id}`);
    for (const post of posts) if (!written.get(post.author)!.has(post.id)) missing.push(`post ${post.id}`);
    expect(missing).toEqual([]);
    const total = ((await call(restarted, "CountUsers")).body as { total: number }).total;
    expect(total).toBeGreaterThanOrEqual(FIRST_USERS + acknowledged.length);
    expect(total).toBeLessThanOrEqual(FIRST_USERS + sent);
    expect(await restarted.stop()).toBe(0);
    await expectVerifiesClean(dataDir);
    // Two server starts, a first batch of users and the checks: more than the default 30 s on a busy machine.
  }, 90_000);
});
