// Every error path of the /mcp endpoints, as exact JSON, and that a failed call leaves the
// connection exactly as it was. Also: idle expiry (with an injected clock), the connection cap,
// `mcp = false`, and the api key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpConnectionOptions } from "../cli/config/settings.js";
import { strandConfig } from "../cli/config/load-config.js";
import { err, ok, openFixture, type McpFixture } from "./support/mcp-fixture.js";

let f: McpFixture;

beforeAll(async () => {
  f = await openFixture();
});

afterAll(async () => {
  await f.close();
});

const bad = (message: string) => err(400, "INVALID_PARAMETER", message);
const missing = (message: string) => err(400, "MISSING_PARAMETER", message);
const invalidValue = (message: string) => err(400, "INVALID_VALUE", message);

async function loaded(type = "User"): Promise<string> {
  const id = await f.init();
  expect((await f.tool("n_from_type", { connection_id: id, data: { node_type: type } })).status).toBe(200);
  return id;
}

describe("requests", () => {
  it("unknown tools are 404 with a suggestion", async () => {
    expect(await f.tool("n_from_typ", {})).toEqual(err(404, "UNKNOWN_TOOL", "unknown MCP tool 'n_from_typ'; did you mean 'n_from_type'?"));
    expect(await f.tool("frobnicate", {})).toEqual(err(404, "UNKNOWN_TOOL", "unknown MCP tool 'frobnicate'"));
    expect(await f.post("/mcp/a/b", {})).toEqual(err(404, "NOT_FOUND", "no route for POST /mcp/a/b"));
  });

  it("bodies must be JSON objects sent as JSON with POST", async () => {
    expect(await f.post("/mcp/init", "[]")).toEqual(err(400, "INVALID_BODY", "request body must be a JSON object, got []"));
    expect(await f.post("/mcp/init", "{")).toEqual(
      err(
        400,
        "INVALID_JSON",
        "invalid JSON at position 1 (line 1, column 2): unexpected end of input, expected a property name in double quotes",
      ),
    );
    expect(await f.post("/mcp/init", "{}", { "content-type": "text/plain" })).toEqual(
      err(415, "UNSUPPORTED_MEDIA_TYPE", 'unsupported content type "text/plain": send the parameters as application/json'),
    );
    const get = await f.app.request("/mcp/init");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toEqual({ error: "method GET is not allowed on /mcp/init; use POST", code: "METHOD_NOT_ALLOWED" });
    // An empty body is `{}`; the content type is still required.
    const init = await f.app.request("/mcp/init", { method: "POST", headers: { "content-type": "application/json" } });
    expect(init.status).toBe(200);
    const bare = await f.app.request("/mcp/init", { method: "POST" });
    expect(bare.status).toBe(415);
  });

  it("unknown members are refused, with a suggestion", async () => {
    expect(await f.tool("init", { connection_id: "x" })).toEqual(
      err(400, "UNKNOWN_PARAMETER", "unknown member 'connection_id' (expected: none)"),
    );
    const id = await f.init();
    expect(await f.tool("n_from_type", { connection_id: id, data: { nodetype: "User" } })).toEqual(
      err(400, "UNKNOWN_PARAMETER", "unknown member 'data.nodetype'; did you mean 'node_type'?"),
    );
  });

  it("connection_id is required, a string, and must name a live connection", async () => {
    expect(await f.tool("next", {})).toEqual(missing("missing 'connection_id' (the id init returned)"));
    expect(await f.tool("next", { connection_id: 7 })).toEqual(bad("'connection_id' must be a string (the id init returned), got 7"));
    const unknown = err(404, "UNKNOWN_CONNECTION", "unknown connection_id 'nope' (never created, or expired after being idle)");
    const bodies: Array<[string, object]> = [
      ["n_from_type", { data: { node_type: "User" } }],
      ["e_from_type", { data: { edge_type: "Follows" } }],
      ["out_step", { data: { edge_label: "Follows" } }],
      ["filter_items", { data: { filter: {} } }],
      ["order_by", { data: { properties: "age", order: "asc" } }],
      ["next", {}],
      ["collect", { drop: false }],
      ["reset", {}],
      ["schema_resource", {}],
      ["aggregate_by", { properties: ["city"] }],
    ];
    for (const [tool, body] of bodies) expect(await f.tool(tool, { connection_id: "nope", ...body }), tool).toEqual(unknown);
    expect(await f.tool("group_by", { connection_id: "nope", properties: ["city"] })).toEqual(unknown);
  });
});

describe("bad input leaves the connection as it was", () => {
  it("after every kind of error, the traversal and its cursor are unchanged", async () => {
    const id = await loaded();
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(f.data.ada));
    const failures: Array<[string, unknown]> = [
      ["n_from_type", { connection_id: id, data: { node_type: "Usr" } }],
      ["e_from_type", { connection_id: id, data: { edge_type: "User" } }],
      ["out_step", { connection_id: id, data: { edge_type: "vec", edge_label: "Follows" } }],
      ["in_e_step", { connection_id: id, data: { edge_label: "Wrote" } }],
      ["filter_items", { connection_id: id, data: { filter: { properties: [[{ key: "age", operator: ">", value: "old" }]] } } }],
      ["filter_items", { connection_id: id, data: { filter: { properties: [[{ key: "age", operator: ">", value: "1" }], "x"] } } }],
      ["order_by", { connection_id: id, data: { properties: "age", order: "up" } }],
      ["collect", { connection_id: id, range: { start: 2, end: 1 } }],
      ["collect", { connection_id: id, drop: "yes" }],
      ["group_by", { connection_id: id, properties: ["nope"] }],
    ];
    for (const [tool, body] of failures) expect((await f.tool(tool, body)).status, tool).toBe(400);
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(f.data.bob));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.ada, f.data.bob, f.data.cyd, f.data.dee]));
  });
});

describe("sources", () => {
  it("name the field and suggest a type", async () => {
    const id = await f.init();
    expect(await f.tool("n_from_type", { connection_id: id })).toEqual(missing("missing 'data' ({node_type})"));
    expect(await f.tool("n_from_type", { connection_id: id, data: {} })).toEqual(missing("missing 'data.node_type' (a node type name)"));
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: 3 } })).toEqual(
      bad("'data.node_type' must be a non-empty string (a node type name), got 3"),
    );
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "Usr" } })).toEqual(
      bad("'data.node_type': unknown node type 'Usr'; did you mean 'User'?"),
    );
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "Follows" } })).toEqual(
      bad("'data.node_type': unknown node type 'Follows' ('Follows' is an edge type)"),
    );
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: "Zzzzzz" } })).toEqual(
      bad("'data.node_type': unknown node type 'Zzzzzz' (known: User, Post)"),
    );
    expect(await f.tool("e_from_type", { connection_id: id, data: { edge_type: "User" } })).toEqual(
      bad("'data.edge_type': unknown edge type 'User' ('User' is a node type)"),
    );
  });
});

describe("steps", () => {
  it("name the field holding the edge or the kind", async () => {
    const id = await loaded();
    const step = (tool: string, data: unknown) => f.tool(tool, { connection_id: id, data });
    expect(await step("out_step", { edge_type: "node", edge_label: "Folows" })).toEqual(
      bad("'data.edge_label': unknown edge type 'Folows'; did you mean 'Follows'?"),
    );
    expect(await step("out_step", { edge_type: "Folows", edge_label: "node" })).toEqual(
      bad("'data.edge_type': unknown edge type 'Folows'; did you mean 'Follows'?"),
    );
    expect(await step("out_step", { edge_type: "vec", edge_label: "Follows" })).toEqual(
      bad("'data.edge_type': out_step over Follows arrives at User, a node type, so the kind is 'node'"),
    );
    expect(await step("out_step", { edge_type: "Wrote", edge_label: "vec" })).toEqual(
      bad("'data.edge_label': out_step over Wrote arrives at Post, a node type, so the kind is 'node'"),
    );
    expect(await step("out_step", { edge_type: "edge", edge_label: "Follows" })).toEqual(
      bad("'data.edge_type' must be 'node' or 'vec' (the kind of the items the step arrives at), got \"edge\""),
    );
    expect(await step("out_step", {})).toEqual(missing("missing 'data.edge_label' (the edge type's name)"));
    expect(await step("out_step", { edge_type: "node" })).toEqual(missing("missing 'data.edge_label' (the edge type's name)"));
    expect(await step("out_step", { edge_label: "node" })).toEqual(
      missing("missing 'data.edge_type' (the edge type's name, since edge_label holds the kind)"),
    );
    expect(await step("in_step", { edge_label: "Wrote" })).toEqual(
      bad("'data.edge_label': Wrote goes from User to Post, so in_step cannot start from the held User"),
    );
    expect(await step("out_step", { edge_label: 5 })).toEqual(bad("'data.edge_label' must be a non-empty string, got 5"));
  });

  it("need a loaded traversal, and nodes (not edges) for out_step / in_step", async () => {
    const id = await f.init();
    expect(await f.tool("out_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(
      invalidValue("out_step needs a traversal to start from: begin with n_from_type, e_from_type or a search"),
    );
    expect(await f.tool("e_from_type", { connection_id: id, data: { edge_type: "Follows" } })).toEqual(ok({ connection_id: id, count: 4 }));
    expect(await f.tool("out_step", { connection_id: id, data: { edge_label: "Follows" } })).toEqual(
      invalidValue(
        "out_step starts from nodes or vectors, but the traversal holds Follows edges; use out_e_step / in_e_step to reach their ends",
      ),
    );
    expect(await f.tool("out_e_step", { connection_id: id, data: { edge_label: "Wrote" } })).toEqual(
      bad("'data.edge_label': Wrote goes from User to Post, so out_e_step cannot start from the held Follows edges"),
    );
  });
});

describe("filter_items", () => {
  const filterWith = async (filter: unknown, type = "User") => {
    const id = await loaded(type);
    return f.tool("filter_items", { connection_id: id, data: { filter } });
  };
  const where = (key: unknown, operator: unknown, value: unknown) => ({ properties: [[{ key, operator, value }]] });
  const at = "data.filter.properties[0][0]";

  it("names the key, operator or value that is wrong", async () => {
    expect(await filterWith(where("age", "=~", "3"))).toEqual(bad(`'${at}.operator' must be one of == != > >= < <=, got "=~"`));
    expect(await filterWith(where("agee", "==", "3"))).toEqual(
      bad(`'${at}.key': User has no property 'agee' (properties: id, label, name, age, city, tags, joined)`),
    );
    expect(await filterWith(where("age", ">", "abc"))).toEqual(bad(`'${at}.value' must be a number (the property is U32), got "abc"`));
    expect(await filterWith(where("age", "==", ["1", "x"]))).toEqual(
      bad(`'${at}.value[1]' must be a number (the property is U32), got "x"`),
    );
    expect(await filterWith(where("age", "==", []))).toEqual(bad(`'${at}.value' must be a value or a non-empty array of values, got []`));
    expect(await filterWith(where("name", "==", 5))).toEqual(bad(`'${at}.value' must be a string (the property is String), got 5`));
    expect(await filterWith(where("id", "==", "not-a-uuid"))).toEqual(
      bad(`'${at}.value' must be a UUID (the property is ID), got "not-a-uuid"`),
    );
    expect(await filterWith(where("joined", ">", "2020-13-01"))).toEqual(
      bad(
        `'${at}.value' must be a date: RFC 3339 with an offset (2024-05-01T12:00:00+02:00), YYYY-MM-DD or unix seconds, got "2020-13-01"`,
      ),
    );
    expect(await filterWith(where("joined", ">", "2020-01-01T00:00:00"))).toEqual(
      bad(
        `'${at}.value' must be a date: RFC 3339 with an offset (2024-05-01T12:00:00+02:00), YYYY-MM-DD or unix seconds, got "2020-01-01T00:00:00"`,
      ),
    );
    expect(await filterWith({ properties: [[{ key: "age", operator: "==" }]] })).toEqual(
      missing(`missing '${at}.value' (a string or an array of strings)`),
    );
    expect(await filterWith({ properties: [[{ key: "age", operator: "==", value: "1", op: "x" }]] })).toEqual(
      err(400, "UNKNOWN_PARAMETER", `unknown member '${at}.op' (expected: key, operator, value)`),
    );
  });

  it("names malformed layers", async () => {
    expect(await filterWith({ properties: { key: "age" } })).toEqual(
      bad(`'data.filter.properties' must be an array of AND-groups: [[{key, operator, value}, ...], ...], got {"key":"age"}`),
    );
    expect(await filterWith({ properties: [{ key: "age", operator: "==", value: "1" }] })).toEqual(
      bad(
        `'data.filter.properties[0]' must be an array of conditions {key, operator, value} (one AND-group), got {"key":"age","operator":"==","value":"1"}`,
      ),
    );
    expect(await filterWith({ filter_traversals: [{ tool_name: "n_from_type", args: {} }] })).toEqual(
      bad(`'data.filter.filter_traversals[0].tool_name' must be one of out_step, in_step, out_e_step, in_e_step, got "n_from_type"`),
    );
    expect(await filterWith({ filter_traversals: [{ tool_name: "out_step" }] })).toEqual(
      missing("missing 'data.filter.filter_traversals[0].args' (the step's fields: {edge_type, edge_label, filter?})"),
    );
    expect(
      await filterWith({ filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote", filter: {} }, filters: {} }] }),
    ).toEqual(bad("'data.filter.filter_traversals[0]': give the nested filter once, as args.filter or as filters, not both"));
    const nested = { filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote", filter: where("age", ">", "1") } }] };
    expect(await filterWith(nested)).toEqual(
      bad(
        "'data.filter.filter_traversals[0].args.filter.properties[0][0].key': Post has no property 'age' (properties: id, label, title, published)",
      ),
    );
    expect(await filterWith({ filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote" } }] }, "Post")).toEqual(
      bad("'data.filter.filter_traversals[0].args.edge_label': Wrote goes from User to Post, so out_step cannot start from the held Post"),
    );
    expect(await filterWith({ tags: [] })).toEqual(
      err(400, "UNKNOWN_PARAMETER", "unknown member 'data.filter.tags' (expected: properties, filter_traversals)"),
    );
  });

  it("needs a filter and a loaded traversal", async () => {
    const id = await f.init();
    expect(await f.tool("filter_items", { connection_id: id, data: {} })).toEqual(
      missing("missing 'data.filter' ({properties?, filter_traversals?})"),
    );
    expect(await f.tool("filter_items", { connection_id: id, data: { filter: {} } })).toEqual(
      invalidValue("filter_items needs a traversal: begin with n_from_type, e_from_type or a search"),
    );
  });
});

describe("order_by, collect, group_by", () => {
  it("order_by names its fields", async () => {
    const id = await loaded();
    const order = (data: unknown) => f.tool("order_by", { connection_id: id, data });
    expect(await order({ properties: "age" })).toEqual(missing("missing 'data.order' (asc or desc)"));
    expect(await order({ properties: "age", order: "up" })).toEqual(bad(`'data.order' must be 'asc' or 'desc', got "up"`));
    expect(await order({ properties: ["age", "name"], order: "asc" })).toEqual(
      bad(`'data.properties' must be one property name (order_by sorts by one property), got ["age","name"]`),
    );
    expect(await order({ properties: "height", order: "asc" })).toEqual(
      bad("'data.properties': User has no property 'height' (properties: id, label, name, age, city, tags, joined)"),
    );
    expect(await order({ properties: [], order: "asc" })).toEqual(
      bad("'data.properties' must be a non-empty array of property names, got []"),
    );
    // Direction is case-insensitive.
    expect(await order({ properties: "age", order: "DESC" })).toEqual(ok(f.data.cyd));
  });

  it("collect names its fields", async () => {
    const id = await loaded();
    const collect = (body: object) => f.tool("collect", { connection_id: id, ...body });
    expect(await collect({ range: { start: -1 } })).toEqual(bad("'range.start' must be an integer >= 0, got -1"));
    expect(await collect({ range: { end: -2 } })).toEqual(bad("'range.end' must be an integer >= -1, got -2"));
    expect(await collect({ range: { start: 3, end: 2 } })).toEqual(
      bad("'range.end' must be -1 (to the end) or an integer >= range.start (3), got 2"),
    );
    expect(await collect({ range: { start: 1.5 } })).toEqual(bad("'range.start' must be an integer >= 0, got 1.5"));
    expect(await collect({ range: [0, 1] })).toEqual(bad("'range' must be an object, got [0,1]"));
    expect(await collect({ range: { from: 0 } })).toEqual(
      err(400, "UNKNOWN_PARAMETER", "unknown member 'range.from' (expected: start, end)"),
    );
    expect(await collect({ drop: "no" })).toEqual(bad(`'drop' must be true or false, got "no"`));
  });

  it("group_by and aggregate_by name their fields", async () => {
    const id = await loaded();
    for (const tool of ["group_by", "aggregate_by"]) {
      expect(await f.tool(tool, { connection_id: id })).toEqual(missing("missing 'properties' (the property names to group by)"));
      expect(await f.tool(tool, { connection_id: id, properties: ["city", 3] })).toEqual(
        bad("'properties[1]' must be a property name, got 3"),
      );
      expect(await f.tool(tool, { connection_id: id, data: { properties: ["town"] } })).toEqual(
        bad("'data.properties[0]': User has no property 'town' (properties: id, label, name, age, city, tags, joined)"),
      );
      expect(await f.tool(tool, { connection_id: id, properties: ["city"], data: { properties: ["city"] } })).toEqual(
        bad("give 'properties' once, at the top level or as data.properties, not both"),
      );
    }
    const blank = await f.init();
    expect(await f.tool("group_by", { connection_id: blank, properties: ["city"] })).toEqual(
      invalidValue("group_by needs a traversal: begin with n_from_type, e_from_type or a search"),
    );
  });
});

describe("connection lifetime", () => {
  it("connections expire after the idle timeout; using one keeps it alive", async () => {
    let now = 1_000_000;
    const g = await openFixture({ mcpConnections: { idleTimeoutMs: 1000, now: () => now } });
    try {
      const a = await g.init();
      const b = await g.init();
      now += 999;
      expect(await g.tool("next", { connection_id: a })).toEqual(ok(null));
      now += 999; // a was used 999 ms ago, b 1998 ms ago
      expect(await g.tool("reset", { connection_id: a })).toEqual(ok(a));
      expect(await g.tool("reset", { connection_id: b })).toEqual(
        err(404, "UNKNOWN_CONNECTION", `unknown connection_id '${b}' (never created, or expired after being idle)`),
      );
      now += 1000;
      expect((await g.tool("reset", { connection_id: a })).status).toBe(404);
    } finally {
      await g.close();
    }
  });

  it("strand.toml's mcp_idle_timeout_seconds and mcp_max_connections are what serve gives the registry (audit D5)", async () => {
    const read = strandConfig("mcp_idle_timeout_seconds = 1\nmcp_max_connections = 2\n", "strand.toml");
    if (!read.ok) throw new Error(read.errors.join("\n"));
    expect(mcpConnectionOptions(read.config)).toEqual({ idleTimeoutMs: 1000, maxConnections: 2 });
    let now = 5_000;
    const g = await openFixture({ mcpConnections: { ...mcpConnectionOptions(read.config), now: () => now } });
    try {
      const a = await g.init();
      await g.init();
      expect(await g.tool("init", {})).toEqual(
        err(429, "TOO_MANY_CONNECTIONS", "too many open connections (limit 2); idle ones expire after 1000 ms"),
      );
      now += 999;
      expect(await g.tool("next", { connection_id: a })).toEqual(ok(null));
      now += 1000;
      expect(await g.tool("next", { connection_id: a })).toEqual(
        err(404, "UNKNOWN_CONNECTION", `unknown connection_id '${a}' (never created, or expired after being idle)`),
      );
      expect((await g.tool("init", {})).status).toBe(200);
    } finally {
      await g.close();
    }
  });

  it("the number of connections is capped (429); expired ones free their place", async () => {
    let now = 0;
    const g = await openFixture({ mcpConnections: { maxConnections: 2, idleTimeoutMs: 60_000, now: () => now } });
    try {
      const a = await g.init();
      now += 30_000;
      await g.init();
      expect(await g.tool("init", {})).toEqual(
        err(429, "TOO_MANY_CONNECTIONS", "too many open connections (limit 2); idle ones expire after 60000 ms"),
      );
      now += 30_000; // a expires
      const c = await g.init();
      expect(c).not.toBe(a);
      expect((await g.tool("next", { connection_id: a })).status).toBe(404);
      expect((await g.tool("init", {})).status).toBe(429);
    } finally {
      await g.close();
    }
  });
});

describe("configuration", () => {
  it("mcp = false: every /mcp path answers 404 JSON and queries still work", async () => {
    const g = await openFixture({ mcp: false });
    try {
      const disabled = (method: string, path: string) =>
        err(404, "NOT_FOUND", `no route for ${method} ${path}: the MCP endpoints are disabled (mcp = false)`);
      expect(await g.tool("init", {})).toEqual(disabled("POST", "/mcp/init"));
      expect(await g.post("/mcp/UsersInCityMcp", {})).toEqual(disabled("POST", "/mcp/UsersInCityMcp"));
      expect(await g.post("/mcp", {})).toEqual(disabled("POST", "/mcp"));
      expect(await g.post("/mcp/x/y", {})).toEqual(disabled("POST", "/mcp/x/y"));
      const get = await g.app.request("/mcp");
      expect({ status: get.status, body: await get.json() }).toEqual(disabled("GET", "/mcp"));
      expect(await g.post("/CountUsers", {})).toEqual(ok({ total: 4 }));
    } finally {
      await g.close();
    }
  });

  it("the api key guards /mcp like every other path", async () => {
    const g = await openFixture({ apiKey: "sesame" });
    try {
      expect(await g.tool("init", {})).toEqual(err(401, "UNAUTHORIZED", "missing x-api-key header"));
      const reply = await g.post("/mcp/init", {}, { "content-type": "application/json", "x-api-key": "sesame" });
      expect(reply.status).toBe(200);
    } finally {
      await g.close();
    }
  });
});
