// End to end: a real `strand serve examples/social` process (built dist/, compiled in process),
// driven over HTTP. Every query of the example is called and its reply compared as exact JSON;
// ids (UUIDs) and DEFAULT NOW dates are captured from replies and checked for their form.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startStrand, type JsonReply, type StrandServer } from "./support/server.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

interface User {
  id: string;
  label: "User";
  handle: string;
  name: string;
  city: string;
  age: number;
  joined: string;
}
interface Post {
  id: string;
  label: "Post";
  title: string;
  body: string;
  likes: number;
  created: string;
}
interface Follows {
  id: string;
  label: "Follows";
  from_node: string;
  to_node: string;
  weight: number;
  since: string;
}

let server: StrandServer;

beforeAll(async () => {
  server = await startStrand();
});

afterAll(async () => {
  const code = await server.stop();
  expect(code).toBe(0);
  expect(server.output()).toContain("strand: SIGTERM, shutting down");
});

function ok(body: unknown): JsonReply {
  return { status: 200, body };
}
function error(status: number, code: string, message: string): JsonReply {
  return { status, body: { error: message, code } };
}

/** Checks the generated members' form (uuid id, ISO date) and returns the record. */
function record<T extends { id: string }>(value: unknown, dateField: string): T {
  const rec = value as T & Record<string, unknown>;
  expect(rec.id).toMatch(UUID);
  expect(rec[dateField]).toMatch(ISO_DATE);
  expect(new Date(rec[dateField] as string).toISOString()).toBe(rec[dateField]);
  return rec;
}

async function addUser(handle: string, name: string, city: string, age: number): Promise<User> {
  const reply = await call(server, "AddUser", { handle, name, city, age });
  expect(reply.status).toBe(200);
  const user = record<User>((reply.body as { user: unknown }).user, "joined");
  expect(reply.body).toEqual({ user: { id: user.id, label: "User", handle, name, city, age, joined: user.joined } });
  return user;
}

async function follow(from: User, to: User, weight: number): Promise<Follows> {
  const reply = await call(server, "Follow", { from: from.id, to: to.id, weight });
  expect(reply.status).toBe(200);
  const edge = record<Follows>((reply.body as { follows: unknown }).follows, "since");
  expect(reply.body).toEqual({
    follows: { id: edge.id, label: "Follows", from_node: from.id, to_node: to.id, weight, since: edge.since },
  });
  return edge;
}

async function writePost(author: User, title: string, body: string): Promise<Post> {
  const reply = await call(server, "WritePost", { author: author.id, title, body });
  expect(reply.status).toBe(200);
  const post = record<Post>((reply.body as { post: unknown }).post, "created");
  expect(reply.body).toEqual({ post: { id: post.id, label: "Post", title, body, likes: 0, created: post.created } });
  return post;
}

describe("examples/social over HTTP", () => {
  let alice: User, bob: User, carol: User, dave: User, erin: User;
  let ab: Follows, ac: Follows, cb: Follows, bd: Follows;
  let first: Post, second: Post;
  const missingId = "00000000-0000-7000-8000-000000000000";

  it("GET /health and /introspect", async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${server.url}/introspect`)).json()).toEqual({
      schema: {
        nodes: [
          { name: "User", properties: { handle: "String", name: "String", city: "String", age: "U32", joined: "Date" } },
          { name: "Post", properties: { title: "String", body: "String", likes: "I64", created: "Date" } },
        ],
        vectors: [],
        edges: [
          { name: "Follows", from: "User", to: "User", properties: { weight: "F64", since: "Date" } },
          { name: "Wrote", from: "User", to: "Post", properties: {} },
        ],
      },
      queries: [
        { name: "AddUser", parameters: { handle: "String", name: "String", city: "String", age: "U32" }, returns: ["user"] },
        { name: "AdultsInOrder", parameters: { min_age: "U32" }, returns: ["users"] },
        { name: "CheapestRoute", parameters: { from: "ID", to: "ID" }, returns: ["paths"] },
        { name: "CountByCity", parameters: {}, returns: ["groups"] },
        { name: "CountUsers", parameters: {}, returns: ["total"] },
        { name: "FewestHops", parameters: { from: "ID", to: "ID" }, returns: ["paths"] },
        { name: "Follow", parameters: { from: "ID", to: "ID", weight: "F64" }, returns: ["follows"] },
        { name: "FollowEdges", parameters: { id: "ID" }, returns: ["outgoing", "incoming"] },
        { name: "FollowEnds", parameters: { edge: "ID" }, returns: ["follower", "followed"] },
        { name: "Followers", parameters: { id: "ID" }, returns: ["users"] },
        { name: "Following", parameters: { id: "ID" }, returns: ["users"] },
        { name: "FriendsOfFriends", parameters: { id: "ID" }, returns: ["users"] },
        { name: "GetUser", parameters: { id: "ID" }, returns: ["user"] },
        { name: "ListUsers", parameters: { start: "U32", end: "U32" }, returns: ["users"] },
        { name: "OldestFollowed", parameters: { id: "ID" }, returns: ["user"] },
        { name: "PostsOf", parameters: { id: "ID" }, returns: ["posts"] },
        { name: "RenameUser", parameters: { id: "ID", name: "String" }, returns: ["user"] },
        { name: "UserByHandle", parameters: { handle: "String" }, returns: ["user"] },
        { name: "UsersByCity", parameters: {}, returns: ["groups"] },
        { name: "UsersByCityAndAge", parameters: {}, returns: ["groups"] },
        { name: "UsersInCity", parameters: { city: "String" }, returns: ["users"] },
        { name: "WritePost", parameters: { author: "ID", title: "String", body: "String" }, returns: ["post"] },
      ],
    });
  });

  it("AddUser creates users; a taken handle is 409", async () => {
    alice = await addUser("alice", "Alice", "Paris", 34);
    bob = await addUser("bob", "Bob", "Berlin", 28);
    carol = await addUser("carol", "Carol", "Paris", 45);
    dave = await addUser("dave", "Dave", "Rome", 19);
    erin = await addUser("erin", "Erin", "Paris", 34);
    expect(await call(server, "AddUser", { handle: "alice", name: "Other", city: "Oslo", age: 50 })).toEqual(
      error(409, "UNIQUE_VIOLATION", `UNIQUE INDEX violated: N::User field 'handle' already has value "alice"`),
    );
    expect(await call(server, "CountUsers")).toEqual(ok({ total: 5 }));
  });

  it("bad parameters are 400 naming the parameter; unknown queries 404", async () => {
    expect(await call(server, "AddUser", { handle: "x", name: "X", city: "Oslo" })).toEqual(
      error(400, "MISSING_PARAMETER", "missing required parameter 'age'"),
    );
    expect(await call(server, "AddUser", { handle: "x", name: "X", city: "Oslo", age: -1 })).toEqual(
      error(400, "INVALID_PARAMETER", "parameter 'age' must be an integer between 0 and 4294967295 (U32), got -1"),
    );
    expect(await call(server, "GetUsr", { id: alice.id })).toEqual(
      error(404, "UNKNOWN_QUERY", 'unknown query "GetUsr"; did you mean "GetUser"?'),
    );
  });

  it("GetUser, UserByHandle, UsersInCity; an unknown id is 404", async () => {
    expect(await call(server, "GetUser", { id: carol.id })).toEqual(ok({ user: carol }));
    expect(await call(server, "GetUser", { id: missingId })).toEqual(error(404, "NOT_FOUND", `N::User with id '${missingId}' not found`));
    expect(await call(server, "UserByHandle", { handle: "bob" })).toEqual(ok({ user: bob }));
    expect(await call(server, "UsersInCity", { city: "Paris" })).toEqual(ok({ users: [alice, carol, erin] }));
    expect(await call(server, "UsersInCity", { city: "Lima" })).toEqual(ok({ users: [] }));
  });

  it("Follow creates weighted edges; an endpoint of the wrong type is 400, a missing one 404", async () => {
    ab = await follow(alice, bob, 100);
    ac = await follow(alice, carol, 30);
    cb = await follow(carol, bob, 40);
    bd = await follow(bob, dave, 1);
    first = await writePost(alice, "Hello", "First post");
    expect(await call(server, "Follow", { from: alice.id, to: first.id, weight: 1 })).toEqual(
      error(400, "EDGE_TYPE_MISMATCH", `E::Follows must go to a User node, but node '${first.id}' is a Post`),
    );
    expect(await call(server, "Follow", { from: alice.id, to: missingId, weight: 1 })).toEqual(
      error(404, "NOT_FOUND", `to node '${missingId}' of E::Follows not found`),
    );
  });

  it("WritePost and PostsOf (newest first)", async () => {
    await new Promise((r) => setTimeout(r, 5)); // distinct `created` timestamps
    second = await writePost(alice, "Again", "Second post");
    expect(await call(server, "PostsOf", { id: alice.id })).toEqual(ok({ posts: [second, first] }));
    expect(await call(server, "PostsOf", { id: bob.id })).toEqual(ok({ posts: [] }));
  });

  it("Following, Followers, FollowEdges, FollowEnds, FriendsOfFriends", async () => {
    expect(await call(server, "Following", { id: alice.id })).toEqual(ok({ users: [bob, carol] }));
    expect(await call(server, "Followers", { id: bob.id })).toEqual(ok({ users: [alice, carol] }));
    expect(await call(server, "FollowEdges", { id: alice.id })).toEqual(ok({ outgoing: [ab, ac], incoming: [] }));
    expect(await call(server, "FollowEdges", { id: bob.id })).toEqual(ok({ outgoing: [bd], incoming: [ab, cb] }));
    expect(await call(server, "FollowEnds", { edge: cb.id })).toEqual(ok({ follower: carol, followed: bob }));
    expect(await call(server, "FriendsOfFriends", { id: alice.id })).toEqual(ok({ users: [dave, bob] }));
  });

  it("OldestFollowed: FIRST is an object, or null when there is none", async () => {
    expect(await call(server, "OldestFollowed", { id: alice.id })).toEqual(ok({ user: carol }));
    expect(await call(server, "OldestFollowed", { id: dave.id })).toEqual(ok({ user: null }));
  });

  it("AdultsInOrder: WHERE + ORDER", async () => {
    expect(await call(server, "AdultsInOrder", { min_age: 21 })).toEqual(ok({ users: [bob, alice, erin, carol] }));
    expect(await call(server, "AdultsInOrder", { min_age: 99 })).toEqual(ok({ users: [] }));
  });

  it("GROUP_BY and AGGREGATE_BY", async () => {
    const byCity = [
      { city: "Paris", count: 3 },
      { city: "Berlin", count: 1 },
      { city: "Rome", count: 1 },
    ];
    expect(await call(server, "UsersByCity")).toEqual(ok({ groups: byCity }));
    expect(await call(server, "CountByCity")).toEqual(ok({ groups: byCity }));
    expect(await call(server, "UsersByCityAndAge")).toEqual(
      ok({
        groups: [
          { count: 2, data: [alice, erin] },
          { count: 1, data: [bob] },
          { count: 1, data: [carol] },
          { count: 1, data: [dave] },
        ],
      }),
    );
  });

  it("FewestHops takes the direct edge; CheapestRoute the lighter detour", async () => {
    expect(await call(server, "FewestHops", { from: alice.id, to: bob.id })).toEqual(ok({ paths: [[[alice, bob], [ab]]] }));
    expect(await call(server, "CheapestRoute", { from: alice.id, to: bob.id })).toEqual(
      ok({
        paths: [
          [
            [alice, carol, bob],
            [ac, cb],
          ],
        ],
      }),
    );
    expect(await call(server, "FewestHops", { from: dave.id, to: alice.id })).toEqual(ok({ paths: [] }));
  });

  it("RenameUser returns the full updated record", async () => {
    const renamed = { ...bob, name: "Robert" };
    expect(await call(server, "RenameUser", { id: bob.id, name: "Robert" })).toEqual(ok({ user: renamed }));
    expect(await call(server, "GetUser", { id: bob.id })).toEqual(ok({ user: renamed }));
    expect(await call(server, "RenameUser", { id: missingId, name: "X" })).toEqual(
      error(404, "NOT_FOUND", `N::User with id '${missingId}' not found`),
    );
    bob = renamed;
  });

  it("ListUsers: RANGE(0, 10) returns 10 of 25, ordered by handle", async () => {
    const more = await Promise.all(
      Array.from({ length: 20 }, (_, i) => addUser(`user${String(i).padStart(2, "0")}`, `User ${i}`, "Oslo", 20 + i)),
    );
    expect(await call(server, "CountUsers")).toEqual(ok({ total: 25 }));
    const byHandle = [alice, bob, carol, dave, erin, ...more];
    expect(await call(server, "ListUsers", { start: 0, end: 10 })).toEqual(ok({ users: byHandle.slice(0, 10) }));
    expect(await call(server, "ListUsers", { start: 20, end: 30 })).toEqual(ok({ users: byHandle.slice(20, 25) }));
  });
});
