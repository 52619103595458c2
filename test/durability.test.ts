// Durability of acknowledged writes across a graceful restart and across `kill -9`.
import { afterAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
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
  });

  it("keeps every acknowledged write when the process is killed with SIGKILL mid-stream", async () => {
    const dataDir = tempDir("strand-crash-");
    dirs.push(dataDir);
    const server = await start(dataDir);
    const acknowledged: User[] = [];
    let sent = 0;
    let stopped = false;

    const writer = async (): Promise<void> => {
      while (!stopped) {
        const handle = `crash${sent++}`;
        try {
          const reply = await call(server, "AddUser", { handle, name: "Crash", city: "Nowhere", age: 1 });
          if (reply.status === 200) acknowledged.push((reply.body as { user: User }).user);
          else throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
        } catch (error) {
          if (stopped) return; // the connection died with the server: not acknowledged
          throw error;
        }
      }
    };
    const writers = Array.from({ length: 8 }, () => writer());

    // Let a good number of writes be acknowledged, then kill the server while requests are in flight.
    while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 5));
    stopped = true;
    await server.kill();
    await Promise.all(writers);
    expect(server.child.signalCode).toBe("SIGKILL");

    const restarted = await start(dataDir);
    const missing: string[] = [];
    for (const user of acknowledged) {
      const reply = await call(restarted, "GetUser", { id: user.id });
      if (reply.status !== 200 || JSON.stringify((reply.body as { user: unknown }).user) !== JSON.stringify(user)) missing.push(user.handle);
    }
    expect(missing).toEqual([]);
    const total = ((await call(restarted, "CountUsers")).body as { total: number }).total;
    expect(total).toBeGreaterThanOrEqual(acknowledged.length);
    expect(total).toBeLessThanOrEqual(sent);
    expect(await restarted.stop()).toBe(0);
  });
});
