// Input of any size or depth is a 4xx with a short message, never a 500 or a stack overflow
// (audit 4: D1 deep filter_traversals, D2 deeply nested values, D10 unbounded echoes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILTER_DEPTH } from "../server/mcp/filter.js";
import { err, ok, openFixture, type McpFixture } from "./support/mcp-fixture.js";

let f: McpFixture;

beforeAll(async () => {
  f = await openFixture();
});

afterAll(async () => {
  await f.close();
});

const bad = (message: string) => err(400, "INVALID_PARAMETER", message);

/** A JSON array nested `n` deep, as text (JSON.stringify itself cannot write one this deep). */
const deepArray = (n: number): string => "[".repeat(n) + "]".repeat(n);
/** How describeValue renders it: 57 brackets and "...". */
const DEEP_SHOWN = `${"[".repeat(57)}...`;

async function loaded(type = "User"): Promise<string> {
  const id = await f.init();
  expect((await f.tool("n_from_type", { connection_id: id, data: { node_type: type } })).status).toBe(200);
  return id;
}

/** A filter whose filter_traversals (out_step Follows) nest `levels` deep. */
function nestedFilter(levels: number): object {
  let layer: object = {};
  for (let i = 0; i < levels; i++)
    layer = { filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Follows", filter: layer } }] };
  return layer;
}

describe("filter_traversals nest at most MAX_FILTER_DEPTH levels (D1)", () => {
  const tooDeep = `'data.filter${".filter_traversals[0].args.filter".repeat(MAX_FILTER_DEPTH)}.filter_traversals': filter_traversals nest at most 32 levels deep`;

  it("32 levels are compiled and run; 33 and far more are a 400 naming the level that is too deep", async () => {
    expect(MAX_FILTER_DEPTH).toBe(32);
    const id = await loaded();
    // No Follows chain in the fixture is 32 long (the longest is dee → ada → bob → cyd).
    expect(await f.tool("filter_items", { connection_id: id, data: { filter: nestedFilter(32) } })).toEqual(
      ok({ connection_id: id, count: 0 }),
    );
    expect(await f.tool("collect", { connection_id: id, drop: false })).toEqual(ok([]));
    const other = await loaded();
    expect(await f.tool("filter_items", { connection_id: other, data: { filter: nestedFilter(3) } })).toEqual(
      ok({ connection_id: other, count: 1 }),
    );
    expect(await f.tool("next", { connection_id: other })).toEqual(ok(f.data.dee));
    // Each level nests 5 JSON containers: 199 levels is as deep as a body may be (1,000 levels,
    // json-shape.ts); deeper bodies are refused while being read.
    for (const levels of [33, 199, 1500, 50_000]) {
      const fresh = await loaded();
      const body = `{"connection_id":"${fresh}","data":{"filter":${filterText(levels)}}}`;
      const expected =
        levels < 200 ? bad(tooDeep) : err(400, "INVALID_JSON", "request body nests arrays and objects more than 1000 levels deep");
      expect(await f.post("/mcp/filter_items", body), `${levels} levels`).toEqual(expected);
      // The failed call left the traversal as it was.
      expect(await f.tool("next", { connection_id: fresh })).toEqual(ok(f.data.ada));
    }
  });
});

/** nestedFilter as JSON text, built without recursion. */
function filterText(levels: number): string {
  const open = '{"filter_traversals":[{"tool_name":"out_step","args":{"edge_label":"Follows","filter":';
  return `${open.repeat(levels)}{}${"}}]}".repeat(levels)}`;
}

describe("deeply nested values are rendered briefly in 400s (D2)", () => {
  it("in every field of the tools, of #[mcp] queries and of POST /<Query>", async () => {
    // As deep as a body may nest (json-shape.ts refuses more than 1,000 levels while reading it).
    const deep = deepArray(990);
    expect(await f.post("/mcp/next", `{"connection_id":${deep}}`)).toEqual(
      bad(`'connection_id' must be a string (the id init returned), got ${DEEP_SHOWN}`),
    );
    const id = await loaded();
    expect(await f.post("/mcp/n_from_type", `{"connection_id":"${id}","data":{"node_type":${deep}}}`)).toEqual(
      bad(`'data.node_type' must be a non-empty string (a node type name), got ${DEEP_SHOWN}`),
    );
    expect(
      await f.post(
        "/mcp/filter_items",
        `{"connection_id":"${id}","data":{"filter":{"properties":[[{"key":"name","operator":"==","value":${deep}}]]}}}`,
      ),
    ).toEqual(bad(`'data.filter.properties[0][0].value[0]' must be a string (the property is String), got ${"[".repeat(57)}...`));
    expect(await f.post("/mcp/UsersInCityMcp", `{"connection_id":"${id}","data":{"city":${deep}}}`)).toEqual(
      bad(`parameter 'city' must be a string (String), got ${DEEP_SHOWN}`),
    );
    expect(await f.post("/UsersInCity", `{"city":${deep}}`)).toEqual(bad(`parameter 'city' must be a string (String), got ${DEEP_SHOWN}`));
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(f.data.ada));
  });
});

describe("JSON nested deeper than a body may be (found with D2)", () => {
  it("is a 400 while the body is read, valid or not, not a 500", async () => {
    const tooDeep = err(400, "INVALID_JSON", "request body nests arrays and objects more than 1000 levels deep");
    expect(await f.post("/mcp/init", "[".repeat(200_000))).toEqual(tooDeep);
    expect(await f.post("/UsersInCity", `${"[".repeat(200_000)}x`)).toEqual(tooDeep);
    expect(await f.post("/UsersInCity", `{"city":${deepArray(20_000)}}`)).toEqual(tooDeep);
    expect(await f.post("/mcp/init", `[${"[".repeat(500)}x`)).toEqual(
      err(400, "INVALID_JSON", "invalid JSON at position 501 (line 1, column 502): unexpected 'x'"),
    );
  });
});

describe("echoed names and ids are at most 60 characters (D10)", () => {
  const long = "x".repeat(10_000);
  const shown = `${"x".repeat(57)}...`;

  it("connection ids, type names, member names, property names, tool and query names", async () => {
    expect(await f.tool("next", { connection_id: long })).toEqual(
      err(404, "UNKNOWN_CONNECTION", `unknown connection_id '${shown}' (never created, or expired after being idle)`),
    );
    const id = await loaded();
    expect(await f.tool("n_from_type", { connection_id: id, data: { node_type: long } })).toEqual(
      bad(`'data.node_type': unknown node type '${shown}' (known: User, Post)`),
    );
    expect(await f.tool("out_step", { connection_id: id, data: { edge_label: long } })).toEqual(
      bad(`'data.edge_label': unknown edge type '${shown}' (known: Follows, Wrote)`),
    );
    expect(await f.tool("next", { connection_id: id, [long]: 1 })).toEqual(
      err(400, "UNKNOWN_PARAMETER", `unknown member '${shown}' (expected: connection_id)`),
    );
    expect(
      await f.tool("filter_items", { connection_id: id, data: { filter: { properties: [[{ key: long, operator: "==", value: "1" }]] } } }),
    ).toEqual(
      bad(`'data.filter.properties[0][0].key': User has no property '${shown}' (properties: id, label, name, age, city, tags, joined)`),
    );
    expect(await f.tool(long, {})).toEqual(err(404, "UNKNOWN_TOOL", `unknown MCP tool '${shown}'`));
    expect(await f.post(`/${long}`, {})).toEqual(err(404, "UNKNOWN_QUERY", `unknown query "${shown}"`));
    expect(await f.tool("next", { connection_id: id })).toEqual(ok(f.data.ada));
  });
});
