// `strand backup` while a `strand serve` child is writing, then `strand restore` and `strand
// verify` (built dist/cli/strand.js): every write acknowledged before the backup started is in
// the restored store, no query's writes are in it by halves, and the store verifies clean.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EdgeItem, NodeItem } from "../core/items.js";
import { openDbs } from "../runtime/store/dbs.js";
import { edgesOfLabel } from "../runtime/records/edge-records.js";
import { CLI, call, startStrand, tempDir, type StrandServer } from "./support/server.js";
import { labelRange } from "../runtime/store/keys.js";

const work = tempDir("strand-backup-online-");
const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

function strandSync(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function strandAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return new Promise((done) => child.once("exit", (status) => done({ status, stdout, stderr })));
}

interface Acked {
  users: string[];
  posts: string[];
  follows: string[];
}

/**
 * One lane of writes, each acknowledged before the next is sent: a user, a post by it (post and
 * Wrote edge in one query), and a follow from the lane's previous user.
 */
async function lane(server: StrandServer, name: string, acked: Acked, running: () => boolean): Promise<void> {
  let previous: string | null = null;
  for (let n = 0; running(); n++) {
    const user = await call(server, "AddUser", { handle: `${name}-${n}`, name: `${name} ${n}`, city: "Oslo", age: n % 90 });
    expect(user.status).toBe(200);
    const userId = (user.body as { user: NodeItem }).user.id;
    acked.users.push(userId);
    const post = await call(server, "WritePost", { author: userId, title: `post ${name}-${n}`, body: "text ".repeat(n % 20) });
    expect(post.status).toBe(200);
    acked.posts.push((post.body as { post: NodeItem }).post.id);
    if (previous !== null) {
      const follow = await call(server, "Follow", { from: previous, to: userId, weight: 1 + (n % 5) });
      expect(follow.status).toBe(200);
      acked.follows.push((follow.body as { follows: EdgeItem }).follows.id);
    }
    previous = userId;
  }
}

function snapshot(a: Acked): Acked {
  return { users: [...a.users], posts: [...a.posts], follows: [...a.follows] };
}

describe("online backup", () => {
  it("copies a store while a server writes; the restore holds every write acknowledged before and verifies", async () => {
    const dataDir = path.join(work, "live");
    const server = await startStrand({ dataDir });
    servers.push(server);
    const acked: Acked = { users: [], posts: [], follows: [] };
    let writing = true;
    const lanes = ["a", "b", "c"].map((name) => lane(server, name, acked, () => writing));
    while (acked.posts.length < 30) await new Promise((r) => setTimeout(r, 10));

    const before = snapshot(acked);
    const backup = await strandAsync(["backup", "--data", "live", "--out", "backups/b1"]);
    const during = acked.posts.length - before.posts.length;
    // While the server still runs: a restore into its directory is refused.
    const intoLive = strandSync(["restore", "backups/b1", "--data", "live"]);
    writing = false;
    await Promise.all(lanes);
    expect(await server.stop()).toBe(0);

    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^backup backups\/b1: \d+ bytes, snapshot of \d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    // Progress went to stderr, one final line per task (not a terminal).
    expect(backup.stderr).toMatch(/^backup: copy: [\d.kM]+ bytes in \d+s\nbackup: checksum: [\d.kM]+ bytes in \d+s\n$/);
    expect(during).toBeGreaterThan(0); // the server kept writing while the copy was made
    expect(fs.readdirSync(path.join(work, "backups"))).toEqual(["b1"]);
    expect(intoLive.status).toBe(1);
    expect(intoLive.stderr).toMatch(/^strand: data directory live is in use by process \d+; stop that server first/);

    const restore = strandSync(["restore", "backups/b1", "--data", "restored"]);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^restored backups\/b1 \(snapshot of [^)]+\) into restored\nok: \d+ nodes, \d+ edges, /);
    expect(strandSync(["verify", "restored"])).toMatchObject({ status: 0, stdout: expect.stringMatching(/^ok: /) });

    const dbs = openDbs(path.join(work, "restored"), undefined);
    try {
      const users = new Set([...dbs.nodes.getRange(labelRange("User"))].map((e) => e.value.id));
      const posts = new Set([...dbs.nodes.getRange(labelRange("Post"))].map((e) => e.value.id));
      const wrote = [...edgesOfLabel(dbs, "Wrote", undefined)];
      const follows = new Set([...edgesOfLabel(dbs, "Follows", undefined)].map((e) => e.id));
      expect(before.users.filter((id) => !users.has(id))).toEqual([]);
      expect(before.posts.filter((id) => !posts.has(id))).toEqual([]);
      expect(before.follows.filter((id) => !follows.has(id as string))).toEqual([]);
      // Nothing half-applied: each post came with its Wrote edge, in one transaction.
      expect(wrote.map((e) => e.to_node).sort()).toEqual([...posts].sort());
      expect(users.size).toBeGreaterThanOrEqual(before.users.length);
    } finally {
      await dbs.env.close();
    }

    // The restored directory serves.
    const again = await startStrand({ dataDir: path.join(work, "restored") });
    servers.push(again);
    expect(await call(again, "GetUser", { id: before.users[0] })).toMatchObject({ status: 200, body: { user: { id: before.users[0] } } });
    expect(await again.stop()).toBe(0);
  }, 120_000);

  it("says how to call backup and restore", () => {
    expect(strandSync(["backup", "--data", "live"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/^strand: strand backup needs --out <backup dir> \(a new name\)\nusage: strand backup --out/),
    });
    expect(strandSync(["restore", "b1"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/^strand: strand restore needs --data <dir> \(a new or empty directory\)\n/),
    });
    expect(strandSync(["restore", "--data", "x"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/^strand: strand restore needs exactly one backup directory, got none\n/),
    });
    expect(strandSync(["backup", "--out", "b9", "--data", "missing"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: missing holds no Strand data (no data.mdb)\n",
    });
    expect(strandSync(["restore", "nothing-here", "--data", "r9"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "strand: nothing-here is not a backup directory\n",
    });
  });
});
