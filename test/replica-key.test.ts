// A replica of a leader that requires an api key must require one too (server/node/
// seed-before-open.ts): started without one it would serve the leader's data to anyone who can
// reach it. Real processes (built dist/cli/strand.js).
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, SOCIAL_EXAMPLE, type StrandServer, startStrand, tempDir } from "./support/server.js";

const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill();
});

describe("a replica of a keyed leader", () => {
  it("refuses to start without an api key, naming why, and follows with one", async () => {
    const leader = await startStrand({ extraArgs: ["--api-key", "leader-key", "--replication-key", "rk"] });
    servers.push(leader);
    const unkeyed = spawnSync(
      process.execPath,
      [
        CLI,
        "serve",
        SOCIAL_EXAMPLE,
        "--port",
        "0",
        "--data",
        tempDir("strand-replica-key-"),
        "--follow",
        leader.url,
        "--replication-key",
        "rk",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect([unkeyed.status, unkeyed.stderr.trim().split("\n").pop()]).toEqual([
      1,
      `strand: cannot follow ${leader.url}: it requires an api key of its clients, and this replica has none, so it would serve the same data to anyone; start it with --api-key-file FILE (or STRAND_API_KEY)`,
    ]);
    const keyed = await startStrand({ extraArgs: ["--follow", leader.url, "--replication-key", "rk", "--api-key", "replica-key"] });
    servers.push(keyed);
    // Printed just after the listening line startStrand waits for: wait for it as it arrives.
    await new Promise<void>((resolve) => {
      const seen = (): void => {
        if (!keyed.output().includes(`following ${leader.url}`)) return;
        keyed.child.stdout?.off("data", seen);
        resolve();
      };
      keyed.child.stdout?.on("data", seen);
      seen();
    });
    expect(keyed.output()).toContain(`following ${leader.url}`);
  }, 120_000);
});
