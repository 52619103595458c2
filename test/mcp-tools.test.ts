// End-to-end tests of the /mcp/<tool> endpoints over the in-process HTTP app: every tool and every
// row of issue 4's state table, with exact JSON answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { err, ok, openFixture, type McpFixture } from "./support/mcp-fixture.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let f: McpFixture;

beforeAll(async () => {
  f = await openFixture();
});

afterAll(async () => {
  await f.close();
});

const held = (id: string, count: number) => ok({ connection_id: id, count });

async function loadUsers(): Promise<string> {
  const id = await f.init();
  expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, 4));
  return id;
}

describe("the state table", () => {
  it("init → n_from_type → filter_items → collect (which drops the traversal)", async () => {
    const init = await f.tool("init", {});
    expect(init.status).toBe(200);
    const id = init.body as string;
    expect(id).toMatch(UUID);
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } })).toEqual(held(id, 4));
    const london = { properties: [[{ key: "city", operator: "==", value: "London" }]] };
    expect(await f.tool("filter_items", { connection_id: id, data: { filter: london } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.ada, f.data.cyd]));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([]));
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(null));
  });

  it("load → collect(drop: false) → out_step → collect", async () => {
    const id = await loadUsers();
    const { ada, bob, cyd, dee } = f.data;
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([ada, bob, cyd, dee]));
    expect(await f.tool("out_step", { connection_id: id, data: { edge_type: "node", edge_label: "Follows" } })).toEqual(held(id, 3));
    // Per held item in order, its edges in creation order: ada→bob, ada→cyd, bob→cyd, dee→ada;
    // a step yields a set, so cyd (reached twice) is held once, where it was first reached.
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([bob, cyd, ada]));
  });

  it("order_by sorts by one property, rewinds the cursor and returns the first item", async () => {
    const id = await loadUsers();
    const { ada, bob, cyd, dee } = f.data;
    expect(await f.tool("order_by", { connection_id: id, data: { properties: "age", order: "desc" } })).toEqual(ok(cyd));
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([cyd, ada, dee, bob]));
    // Dates sort as instants; a one-element list is accepted too.
    expect(await f.tool("order_by", { connection_id: id, data: { properties: ["joined"], order: "asc" } })).toEqual(ok(cyd));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([cyd, ada, bob, dee]));
  });

  it("next walks the traversal until null, and order_by rewinds it", async () => {
    const id = await loadUsers();
    const { ada, bob, cyd, dee } = f.data;
    const next = () => f.tool("next", { connection_id: id });
    expect(await next()).toEqual(ok(ada));
    expect(await next()).toEqual(ok(bob));
    expect(await f.tool("order_by", { connection_id: id, data: { properties: "age", order: "asc" } })).toEqual(ok(bob));
    for (const item of [bob, dee, ada, cyd]) expect(await next()).toEqual(ok(item));
    expect(await next()).toEqual(ok(null));
    expect(await next()).toEqual(ok(null));
  });

  it("group_by and aggregate_by shapes, leaving the traversal as it was", async () => {
    const id = await loadUsers();
    const { ada, bob, cyd, dee } = f.data;
    expect(await f.tool("group_by", { connection_id: id, properties: ["city"] })).toEqual(
      ok([
        { city: "London", count: 2 },
        { city: "Paris", count: 1 },
        { city: "Berlin", count: 1 },
      ]),
    );
    expect(await f.tool("aggregate_by", { connection_id: id, properties: ["city"] })).toEqual(
      ok([
        { count: 2, data: [ada, cyd] },
        { count: 1, data: [bob] },
        { count: 1, data: [dee] },
      ]),
    );
    // Also accepted under data, like the other tools' fields.
    expect(await f.tool("group_by", { connection_id: id, data: { properties: ["city", "tags"] } })).toEqual(
      ok([
        { city: "London", tags: ["math", "poetry"], count: 1 },
        { city: "Paris", tags: ["art"], count: 1 },
        { city: "London", tags: [], count: 1 },
        { city: "Berlin", tags: ["math"], count: 1 },
      ]),
    );
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([ada, bob, cyd, dee]));
  });
});

describe("steps", () => {
  async function fromUser(name: string): Promise<string> {
    const id = await loadUsers();
    const filter = { properties: [[{ key: "name", operator: "==", value: name }]] };
    expect(await f.tool("filter_items", { connection_id: id, data: { filter } })).toEqual(held(id, 1));
    return id;
  }

  it("accepts both field layouts and the edge name alone", async () => {
    const { bob, cyd } = f.data;
    for (const data of [
      { edge_type: "node", edge_label: "Follows" },
      { edge_type: "Follows", edge_label: "node" },
      { edge_label: "Follows" },
      { edge_type: "Follows" },
    ]) {
      const id = await fromUser("ada");
      expect(await f.tool("out_step", { connection_id: id, data })).toEqual(held(id, 2));
      expect(await f.tool("collect", { connection_id: id })).toEqual(ok([bob, cyd]));
    }
  });

  it("in_step goes to the sources", async () => {
    const id = await fromUser("cyd");
    expect(await f.tool("in_step", { connection_id: id, data: { edge_type: "Follows", edge_label: "node" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.ada, f.data.bob]));
  });

  it("out_step reaches another node type", async () => {
    const id = await fromUser("cyd");
    expect(await f.tool("out_step", { connection_id: id, data: { edge_type: "node", edge_label: "Wrote" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.engines, f.data.looms]));
  });

  it("out_e_step from nodes gives edges, and from edges their targets", async () => {
    const [f0, f1] = f.data.follows;
    const id = await fromUser("ada");
    expect(await f.tool("out_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([f0, f1]));
    expect(await f.tool("out_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.bob, f.data.cyd]));
  });

  it("in_e_step from nodes gives edges, and from edges their sources", async () => {
    const [, f1, f2] = f.data.follows;
    const id = await fromUser("cyd");
    expect(await f.tool("in_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([f1, f2]));
    expect(await f.tool("in_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.ada, f.data.bob]));
  });

  it("e_from_type holds every edge of the type; its items filter and step like nodes", async () => {
    const id = await f.init();
    expect(await f.tool("e_from_type", { connection_id: id, data: { edge_type: "Follows" } })).toEqual(held(id, 4));
    const recent = { properties: [[{ key: "since", operator: ">=", value: "2022-01-01" }]] };
    expect(await f.tool("filter_items", { connection_id: id, data: { filter: recent } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([f.data.follows[2], f.data.follows[3]]));
    expect(await f.tool("in_e_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(held(id, 2));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.bob, f.data.dee]));
  });

  it("an empty traversal steps to an empty one", async () => {
    const id = await fromUser("bob");
    expect(await f.tool("out_step", { connection_id: id, data: { edge_label: "Wrote" } })).toEqual(held(id, 0));
    expect(await f.tool("out_e_step", { connection_id: id, data: { edge_label: "Wrote" } })).toEqual(
      err(400, "INVALID_PARAMETER", "'data.edge_label': Wrote goes from User to Post, so out_e_step cannot start from the held Post"),
    );
  });
});

describe("collect, reset, schema_resource", () => {
  it("collect takes a range (end -1: to the end) and keeps the traversal with drop: false", async () => {
    const id = await loadUsers();
    const { ada, bob, cyd, dee } = f.data;
    expect(await f.tool("collect", { connection_id: id, range: { start: 1, end: 3 }, drop: false })).toEqual(ok([bob, cyd]));
    expect(await f.tool("collect", { connection_id: id, range: { start: 2, end: -1 }, drop: false })).toEqual(ok([cyd, dee]));
    expect(await f.tool("collect", { connection_id: id, range: { start: 3 }, drop: false })).toEqual(ok([dee]));
    expect(await f.tool("collect", { connection_id: id, range: { end: 1 }, drop: false })).toEqual(ok([ada]));
    expect(await f.tool("collect", { connection_id: id, range: { start: 9, end: 12 }, drop: false })).toEqual(ok([]));
    expect(await f.tool("collect", { connection_id: id, range: { start: 0, end: 2 } })).toEqual(ok([ada, bob]));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([]));
  });

  it("reset blanks the traversal and returns the id", async () => {
    const id = await loadUsers();
    expect(await f.tool("reset", { connection_id: id })).toEqual(ok(id));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([]));
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(null));
  });

  it("schema_resource describes the types and every query, #[mcp] or not (CountUsers is not)", async () => {
    const id = await f.init();
    expect(await f.tool("schema_resource", { connection_id: id })).toEqual(
      ok({
        schema: {
          nodes: [
            { name: "User", properties: { name: "String", age: "U32", city: "String", tags: "[String]", joined: "Date" } },
            { name: "Post", properties: { title: "String", published: "Date" } },
          ],
          vectors: [],
          edges: [
            { name: "Follows", from: "User", to: "User", properties: { since: "Date" } },
            { name: "Wrote", from: "User", to: "Post", properties: {} },
          ],
        },
        queries: [
          { name: "UsersInCity", parameters: { city: "String" }, returns: ["users"] },
          { name: "AddPost", parameters: { title: "String", published: "Date?" }, returns: ["post"] },
          { name: "CountUsers", parameters: {}, returns: ["total"] },
        ],
      }),
    );
  });
});

describe("connections", () => {
  it("two connections interleaved never affect each other", async () => {
    const a = await f.init();
    const b = await f.init();
    expect(a).not.toBe(b);
    expect(await f.tool("n_from_type", { connection_id: a, data: { node_type: "User" } })).toEqual(held(a, 4));
    expect(await f.tool("n_from_type", { connection_id: b, data: { node_type: "Post" } })).toEqual(held(b, 3));
    expect(await f.tool("next", { connection_id: a })).toEqual(ok(f.data.ada));
    expect(await f.tool("out_step", { connection_id: a, data: { edge_type: "node", edge_label: "Wrote" } })).toEqual(held(a, 3));
    expect(await f.tool("next", { connection_id: b })).toEqual(ok(f.data.notes));
    expect(await f.tool("next", { connection_id: a })).toEqual(ok(f.data.notes));
    expect(await f.tool("next", { connection_id: b })).toEqual(ok(f.data.engines));
    expect(await f.tool("reset", { connection_id: b })).toEqual(ok(b));
    expect(await f.tool("collect", { connection_id: a })).toEqual(ok([f.data.notes, f.data.engines, f.data.looms]));
    expect(await f.tool("collect", { connection_id: b })).toEqual(ok([]));
  });

  it("a paged traversal does not see later writes (its items are materialized)", async () => {
    const id = await f.init();
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "Post" } })).toEqual(held(id, 3));
    const added = await f.post("/mcp/AddPostMcp", { connection_id: id, data: { title: "Later" } });
    expect(added.status).toBe(200);
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.notes, f.data.engines, f.data.looms]));
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "Post" } })).toEqual(held(id, 4));
    expect(await f.tool("collect", { connection_id: id, range: { start: 3 } })).toEqual(ok([(added.body as { post: unknown }).post]));
  });
});

describe("#[mcp] queries", () => {
  it("POST /mcp/<Query>Mcp answers like POST /<Query>", async () => {
    const id = await f.init();
    const direct = await f.post("/UsersInCity", { city: "London" });
    expect(direct).toEqual(ok({ users: [f.data.ada, f.data.cyd] }));
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: id, data: { city: "London" } })).toEqual(direct);
  });

  it("validates parameters like the query endpoint", async () => {
    const id = await f.init();
    const missing = err(400, "MISSING_PARAMETER", "missing required parameter 'city'");
    expect(await f.post("/UsersInCity", {})).toEqual(missing);
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: id, data: {} })).toEqual(missing);
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: id })).toEqual(missing);
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: id, data: { city: 7 } })).toEqual(
      err(400, "INVALID_PARAMETER", "parameter 'city' must be a string (String), got 7"),
    );
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: id, data: [] })).toEqual(
      err(400, "INVALID_PARAMETER", "'data' must be an object of UsersInCity's parameters, got []"),
    );
    expect(await f.post("/mcp/UsersInCityMcp", { connection_id: "nope", data: { city: "London" } })).toEqual(
      err(404, "UNKNOWN_CONNECTION", "unknown connection_id 'nope' (never created, or expired after being idle)"),
    );
  });

  it("a writing query writes durably and a query without #[mcp] is not a tool", async () => {
    const id = await f.init();
    const reply = await f.post("/mcp/AddPostMcp", { connection_id: id, data: { title: "Dated", published: "2024-05-01T12:00:00+02:00" } });
    expect(reply.status).toBe(200);
    const post = (reply.body as { post: { id: string } }).post;
    expect(post).toEqual({ id: post.id, label: "Post", title: "Dated", published: "2024-05-01T10:00:00.000Z" });
    expect(await f.post("/mcp/CountUsersMcp", { connection_id: id })).toEqual(
      err(404, "UNKNOWN_TOOL", "unknown MCP tool 'CountUsersMcp': query CountUsers is not marked #[mcp]"),
    );
  });
});
