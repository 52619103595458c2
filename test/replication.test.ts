// Read replicas from the commit log, end to end with real processes (built dist/cli/strand.js) on
// 127.0.0.1: a leader and two replicas (`strand serve --follow`) under a seeded stream of mixed
// writes (nodes, edges, vectors, updates, drops, FOR ingests, 12,000 edges whose incoming entries
// the leader folds in slices). Every example query plus SearchV and
// SearchBM25 answer the same on all three; each store verifies clean; a replica killed with
// SIGKILL mid-stream resumes from its sequence; a write then a read with Strand-After on a
// replica always sees the write; a write to a replica (HTTP or MCP) is 421 NOT_LEADER.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StrandClient } from "../generated/client.js";
import { FORMAT_VERSION } from "../runtime/store/keys.js";
import { rng } from "./support/vector-fixtures.js";
import { CLI, SOCIAL_EXAMPLE, startStrand, tempDir, type StrandServer } from "./support/server.js";

const KEY = "replication-test-key";
const work = tempDir("strand-replication-");
const project = path.join(work, "project");
fs.mkdirSync(project);
for (const f of ["schema.hx", "queries.hx"]) fs.copyFileSync(path.join(SOCIAL_EXAMPLE, f), path.join(project, f));
fs.writeFileSync(
  path.join(project, "docs.hx"),
  `V::Doc { title: String, INDEX topic: String }

QUERY AddDoc(v: [F64], title: String, topic: String) =>
    doc <- AddV<Doc>(v, {title: title, topic: topic})
    RETURN doc

QUERY AddDocs(docs: [{v: [F64], title: String, topic: String}]) =>
    FOR {v, title, topic} IN docs {
        AddV<Doc>(v, {title: title, topic: topic})
    }
    n <- V<Doc>::COUNT
    RETURN n

QUERY RetitleDoc(id: ID, title: String) =>
    doc <- V<Doc>(id)::UPDATE({title: title})
    RETURN doc

QUERY DropDoc(id: ID) =>
    DROP V<Doc>(id)
    RETURN NONE

QUERY DropUser(id: ID) =>
    DROP N<User>(id)
    RETURN NONE

QUERY AddUsers(users: [{handle: String, name: String, city: String, age: U32}]) =>
    FOR {handle, name, city, age} IN users {
        AddN<User>({handle: handle, name: name, city: city, age: age})
    }
    n <- N<User>::COUNT
    RETURN n

QUERY SimilarDocs(v: [F64], k: I64) =>
    docs <- SearchV<Doc>(v, k)
    RETURN docs

QUERY KeywordDocs(text: String, k: I64) =>
    docs <- SearchBM25<Doc>(text, k)
    RETURN docs

QUERY DocsAbout(topic: String) =>
    docs <- V<Doc>::WHERE(_::{topic}::EQ(topic))
    RETURN docs

E::Links { From: User, To: User }

QUERY AddLinks(links: [{from: ID, to: ID}]) =>
    FOR {from, to} IN links {
        AddE<Links>::From(from)::To(to)
    }
    RETURN "ok"

QUERY LinksInto(id: ID) =>
    users <- N<User>(id)::In<Links>
    RETURN users

QUERY LinksOutOf(id: ID) =>
    users <- N<User>(id)::Out<Links>
    RETURN users

#[mcp]
QUERY Greet(handle: String) =>
    user <- AddN<User>({handle: handle, name: handle, city: "Nowhere", age: 1})
    RETURN user
`,
);

const servers: StrandServer[] = [];
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

async function start(name: string, extraArgs: string[], dataDir = path.join(work, name)): Promise<StrandServer> {
  // A generous Strand-After bound: on a loaded machine an fsync alone can take seconds.
  const args = ["--log-level", "warn", "--replication-key", KEY, "--after-timeout", "60000", ...extraArgs];
  const server = await startStrand({ project, dataDir, extraArgs: args });
  servers.push(server);
  return server;
}

interface Reply {
  status: number;
  body: unknown;
  commit: number;
}

async function post(server: StrandServer, query: string, params: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await fetch(`${server.url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as unknown, commit: Number(res.headers.get("strand-commit")) };
}

async function status(server: StrandServer): Promise<{ seq: number; oldest: number | null; following: { state: string } | null }> {
  const res = await fetch(`${server.url}/replication/status`, { headers: { "x-replication-key": KEY } });
  expect(res.status).toBe(200);
  return (await res.json()) as { seq: number; oldest: number | null; following: { state: string } | null };
}

/** Waits (bounded) until the replica has applied `seq`. */
async function caughtUp(replica: StrandServer, seq: number): Promise<void> {
  const reply = await post(replica, "CountUsers", {}, { "strand-after": String(seq) });
  expect(reply.status, `${JSON.stringify(reply.body)}\n${replica.output()}`).toBe(200);
  expect(reply.commit).toBeGreaterThanOrEqual(seq);
}

function verify(dataDir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, "verify", dataDir], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

const DIM = 6;
const WORDS = ["graph", "vector", "replica", "leader", "commit", "log", "search", "keyword", "node", "edge"];

/** The state the stream keeps to pick its next write. */
interface Stream {
  random: () => number;
  users: string[];
  docs: string[];
  follows: string[];
  n: number;
}

const pick = <T>(s: Stream, list: readonly T[]): T => list[Math.floor(s.random() * list.length)]!;
const vec = (s: Stream): number[] => Array.from({ length: DIM }, () => Math.round((s.random() * 2 - 1) * 1000) / 1000);
const words = (s: Stream): string => Array.from({ length: 2 + Math.floor(s.random() * 4) }, () => pick(s, WORDS)).join(" ");

/** One write of the stream on the leader; its reply. */
async function nextWrite(leader: StrandServer, s: Stream): Promise<Reply> {
  const i = s.n++;
  const r = s.random();
  const user = (body: unknown) => (body as { user: { id: string } }).user.id;
  if (r < 0.18 || s.users.length < 3) {
    const reply = await post(leader, "AddUser", {
      handle: `h${i}`,
      name: `User ${i}`,
      city: pick(s, ["Oslo", "Lima", "Pune"]),
      age: 18 + (i % 60),
    });
    s.users.push(user(reply.body));
    return reply;
  }
  if (r < 0.32) {
    const reply = await post(leader, "Follow", { from: pick(s, s.users), to: pick(s, s.users), weight: 1 + (i % 4) });
    s.follows.push((reply.body as { follows: { id: string } }).follows.id);
    return reply;
  }
  if (r < 0.42) return post(leader, "WritePost", { author: pick(s, s.users), title: words(s), body: words(s) });
  if (r < 0.5) return post(leader, "RenameUser", { id: pick(s, s.users), name: `Renamed ${i}` });
  if (r < 0.64) {
    const reply = await post(leader, "AddDoc", { v: vec(s), title: words(s), topic: pick(s, ["a", "b"]) });
    s.docs.push((reply.body as { doc: { id: string } }).doc.id);
    return reply;
  }
  if (r < 0.72) {
    const docs = Array.from({ length: 3 }, (_, j) => ({ v: vec(s), title: `${words(s)} ${j}`, topic: "batch" }));
    return post(leader, "AddDocs", { docs });
  }
  if (r < 0.78) {
    const users = Array.from({ length: 3 }, (_, j) => ({ handle: `b${i}-${j}`, name: `Batch ${i}`, city: "Pune", age: 30 + j }));
    const reply = await post(leader, "AddUsers", { users });
    return reply;
  }
  if (r < 0.86 && s.docs.length > 0) return post(leader, "RetitleDoc", { id: pick(s, s.docs), title: words(s) });
  if (r < 0.93 && s.docs.length > 2) {
    const id = s.docs.splice(Math.floor(s.random() * s.docs.length), 1)[0]!;
    return post(leader, "DropDoc", { id });
  }
  if (s.users.length > 6) {
    const id = s.users.splice(Math.floor(s.random() * s.users.length), 1)[0]!;
    return post(leader, "DropUser", { id });
  }
  return post(leader, "AddDoc", { v: vec(s), title: words(s), topic: "c" });
}

/** Every example query, and the vector and keyword searches, with parameters from the stream. */
function readCalls(s: Stream): [string, unknown][] {
  const [a, b, c] = [s.users[0]!, s.users[1]!, s.users[s.users.length - 1]!];
  return [
    ["GetUser", { id: a }],
    ["UserByHandle", { handle: "h0" }],
    ["UsersInCity", { city: "Oslo" }],
    ["ListUsers", { start: 0, end: 50 }],
    ["CountUsers", {}],
    ...s.users.slice(0, 4).flatMap((id): [string, unknown][] => [
      ["Following", { id }],
      ["Followers", { id }],
      ["FollowEdges", { id }],
      ["FriendsOfFriends", { id }],
      ["OldestFollowed", { id }],
      ["PostsOf", { id }],
    ]),
    ...s.follows.slice(0, 3).map((edge): [string, unknown] => ["FollowEnds", { edge }]),
    ["AdultsInOrder", { min_age: 40 }],
    ["UsersByCity", {}],
    ["UsersByCityAndAge", {}],
    ["CountByCity", {}],
    ["FewestHops", { from: a, to: c }],
    ["CheapestRoute", { from: b, to: c }],
    ["SimilarDocs", { v: [0.5, -0.2, 0.1, 0.9, -0.4, 0.3], k: 10 }],
    ["SimilarDocs", { v: [-0.5, 0.2, 0.7, -0.1, 0.4, 0.3], k: 25 }],
    ["KeywordDocs", { text: "replica leader", k: 10 }],
    ["KeywordDocs", { text: "vector graph log", k: 20 }],
    ["DocsAbout", { topic: "batch" }],
    ...s.users.slice(0, 6).flatMap((id): [string, unknown][] => [
      ["LinksInto", { id }],
      ["LinksOutOf", { id }],
    ]),
  ];
}

describe("read replicas", () => {
  it("two replicas answer every query as the leader does after a stream of mixed writes; a killed replica resumes; bookmarks read your writes", async () => {
    const leader = await start("leader", []);
    const s: Stream = { random: rng(1515), users: [], docs: [], follows: [], n: 0 };
    for (let i = 0; i < 20; i++) expect((await nextWrite(leader, s)).status).toBe(200);
    // Seeded from a backup taken while the leader holds 20 writes; the rest comes from the log.
    const one = await start("one", ["--follow", leader.url]);
    const twoDir = path.join(work, "two");
    let two = await start("two", ["--follow", leader.url], twoDir);
    expect(one.output()).toContain(`seeding ${path.join(work, "one")} from the backup of ${leader.url}`);

    for (let i = 0; i < 160; i++) {
      const reply = await nextWrite(leader, s);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      expect(reply.commit).toBeGreaterThan(0);
      // Read your writes: the newest user is visible on a replica with the leader's bookmark.
      if (i % 5 === 0) {
        const id = s.users[s.users.length - 1]!;
        const seen = await post(one, "GetUser", { id }, { "strand-after": String(reply.commit) });
        expect(seen.status, JSON.stringify(seen.body)).toBe(200);
        expect((seen.body as { user: { id: string } }).user.id).toBe(id);
      }
      if (i === 60) {
        // SIGKILL mid-stream: the data directory stays.
        two.child.kill("SIGKILL");
        await new Promise((r) => two.child.once("exit", r));
      }
      if (i === 100) {
        two = await start("two", ["--follow", leader.url], twoDir);
        expect(two.output()).not.toContain("seeding");
      }
    }
    // 12,000 edges in requests of 1,000: past 8,192 pending incoming entries the leader's writes
    // fold slices of them, which the replicas replay; then drops cut lists already folded.
    for (let b = 0; b < 12; b++) {
      const links = Array.from({ length: 1000 }, () => ({ from: pick(s, s.users), to: pick(s, s.users) }));
      const reply = await post(leader, "AddLinks", { links });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    for (let d = 0; d < 3; d++) {
      const id = s.users.splice(Math.floor(s.random() * s.users.length), 1)[0]!;
      expect((await post(leader, "DropUser", { id })).status).toBe(200);
    }
    // The generated client carries the bookmark: a write through the leader's client, then a
    // read through a replica's client that took the bookmark, sees it.
    const writer = new StrandClient(leader.url);
    const reader = new StrandClient(two.url);
    for (let i = 0; i < 5; i++) {
      const { user } = await writer.addUser({ handle: `client-${i}`, name: "C", city: "Lima", age: 20 + i });
      reader.lastCommit = writer.lastCommit;
      expect(await reader.getUser({ id: user.id })).toEqual({ user });
      s.users.push(user.id);
    }
    const final = (await status(leader)).seq;
    expect(final).toBeGreaterThanOrEqual(180);
    await caughtUp(one, final);
    await caughtUp(two, final);
    for (const [query, params] of readCalls(s)) {
      const expected = await post(leader, query, params);
      // Edges of dropped users are gone: FollowEnds of one is 404, as it must be everywhere.
      if (query !== "FollowEnds") expect(expected.status, `${query} ${JSON.stringify(expected.body)}`).toBe(200);
      for (const replica of [one, two]) {
        const got = await post(replica, query, params);
        expect({ query, status: got.status, body: got.body }).toEqual({ query, status: expected.status, body: expected.body });
        expect(got.commit).toBe(final);
      }
    }
    const docs = (await post(leader, "SimilarDocs", { v: [0.5, -0.2, 0.1, 0.9, -0.4, 0.3], k: 5 })).body as { docs: unknown[] };
    expect(docs.docs.length).toBe(5);

    // Writes on a replica: 421 with the leader's address, over HTTP and MCP; nothing written.
    expect(await post(one, "AddUser", { handle: "x", name: "X", city: "Oslo", age: 3 })).toEqual({
      status: 421,
      body: { error: `this server is a read replica: send writes to the leader at ${leader.url}`, code: "NOT_LEADER", leader: leader.url },
      commit: final,
    });
    const connection = (await post(one, "mcp/init", {})).body as string;
    expect(await post(one, "mcp/GreetMcp", { connection_id: connection, data: { handle: "agent" } })).toEqual({
      status: 421,
      body: { error: `this server is a read replica: send writes to the leader at ${leader.url}`, code: "NOT_LEADER", leader: leader.url },
      commit: final,
    });

    for (const server of [one, two, leader]) expect(await server.stop()).toBe(0);
    for (const dir of ["leader", "one", "two"]) {
      const checked = verify(path.join(work, dir));
      expect(checked.status, checked.out).toBe(0);
    }
  }, 300_000);

  it("a replica behind the leader's retention re-seeds from a backup; a replica of another schema stops naming the leader's", async () => {
    const leader = await start("small-leader", ["--log-retention-entries", "5"]);
    const s: Stream = { random: rng(77), users: [], docs: [], follows: [], n: 0 };
    for (let i = 0; i < 5; i++) expect((await nextWrite(leader, s)).status).toBe(200);
    const dir = path.join(work, "behind");
    let replica = await start("behind", ["--follow", leader.url], dir);
    await caughtUp(replica, (await status(leader)).seq);
    expect(await replica.stop()).toBe(0);
    for (let i = 0; i < 30; i++) expect((await nextWrite(leader, s)).status).toBe(200);
    // The leader trims in the background (every 5 s): wait until entry 6 is gone.
    const deadline = Date.now() + 30_000;
    while (((await status(leader)).oldest ?? 0) <= 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect((await status(leader)).oldest).toBeGreaterThan(6);
    replica = await start("behind", ["--follow", leader.url], dir);
    const seq = (await status(leader)).seq;
    await caughtUp(replica, seq);
    expect(replica.output()).toContain(`re-seeded from ${leader.url} at sequence`);
    // The store it replaced is kept, named by the sequence it stood at (a re-seed also follows a mistake).
    const kept = fs.readdirSync(dir).filter((name) => name.startsWith("data.mdb.replaced-"));
    expect(kept).toEqual([expect.stringMatching(/^data\.mdb\.replaced-seq-\d+$/)]);
    expect(replica.output()).toContain(
      `; the store it replaced is kept as ${path.join(dir, kept[0]!)} (the newest 3 are kept; to read one: move it into a new directory as data.mdb, then strand export --data that directory)`,
    );
    expect(fs.statSync(path.join(dir, kept[0]!)).size).toBeGreaterThan(0);
    for (const [query, params] of readCalls(s))
      expect((await post(replica, query, params)).body).toEqual((await post(leader, query, params)).body);

    // Another schema: the replica refuses to start, naming what to deploy.
    const other = path.join(work, "other-project");
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, "schema.hx"), "N::Thing { name: String }\nQUERY Things() =>\n    t <- N<Thing>\n    RETURN t\n");
    const refused = spawnSync(
      process.execPath,
      [CLI, "serve", other, "--port", "0", "--data", path.join(work, "other-data"), "--follow", leader.url, "--replication-key", KEY],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^strand: cannot follow ${leader.url.replace(/[.]/g, "\\.")}: the leader serves an unversioned schema \\(schema fingerprint [0-9a-f]{16}, store format ${FORMAT_VERSION}, Strand [^)]+\\), this replica an unversioned schema \\(schema fingerprint [0-9a-f]{16}.*deploy the leader's project version here`,
      ),
    );
    for (const server of [replica, leader]) expect(await server.stop()).toBe(0);
    expect(verify(dir).status).toBe(0);
  }, 300_000);
});
