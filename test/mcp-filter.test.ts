// The filter layer of filter_items over HTTP: typed comparisons (numbers numerically, Dates as
// instants with any offset), the list semantics of every operator, OR over AND-groups, and
// filter_traversals (nested, in args.filter or beside args as filters).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ok, openFixture, type McpFixture } from "./support/mcp-fixture.js";

let f: McpFixture;

beforeAll(async () => {
  f = await openFixture();
});

afterAll(async () => {
  await f.close();
});

type Condition = { key: string; operator: string; value: unknown };
const cond = (key: string, operator: string, value: unknown): Condition => ({ key, operator, value });

/** Loads every item of the type, filters, collects; returns the `name` (or id) of each survivor. */
async function survivors(
  filter: unknown,
  source: { node_type: string } | { edge_type: string } = { node_type: "User" },
): Promise<string[]> {
  const id = await f.init();
  const load = "node_type" in source ? "n_from_type" : "e_from_type";
  expect((await f.tool(load, { connection_id: id, data: source })).status).toBe(200);
  const reply = await f.tool("filter_items", { connection_id: id, data: { filter } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const collected = await f.tool("collect", { connection_id: id });
  expect((reply.body as { count: number }).count).toBe((collected.body as unknown[]).length);
  return (collected.body as Array<{ id: string; name?: string }>).map((item) => item.name ?? item.id);
}

const where = (...conditions: Condition[]) => ({ properties: [conditions] });

describe("typed comparisons", () => {
  it("compares numbers numerically, whether the value is a string or a number", async () => {
    expect(await survivors(where(cond("age", ">", "9")))).toEqual(["ada", "bob", "cyd", "dee"]);
    expect(await survivors(where(cond("age", ">=", "36")))).toEqual(["ada", "cyd"]);
    expect(await survivors(where(cond("age", "<", "29")))).toEqual(["bob"]);
    expect(await survivors(where(cond("age", "<=", "29")))).toEqual(["bob", "dee"]);
    expect(await survivors(where(cond("age", "==", "3.6e1")))).toEqual(["ada"]);
    expect(await survivors(where(cond("age", "!=", "36")))).toEqual(["bob", "cyd", "dee"]);
    expect(await survivors(where(cond("age", ">", 29.5)))).toEqual(["ada", "cyd"]);
  });

  it("compares strings by code unit", async () => {
    expect(await survivors(where(cond("city", ">", "M")))).toEqual(["bob"]);
    expect(await survivors(where(cond("name", "<=", "bob")))).toEqual(["ada", "bob"]);
  });

  it("compares Dates as instants, with any offset, date-only or unix seconds", async () => {
    // 2020-01-01T01:00+02:00 is 2019-12-31T23:00Z: ada joined after it, though as text she sorts before.
    expect(await survivors(where(cond("joined", ">", "2020-01-01T01:00:00+02:00")))).toEqual(["ada", "bob", "dee"]);
    expect(await survivors(where(cond("joined", "==", "2020-01-01T02:00:00+02:00")))).toEqual(["ada"]);
    expect(await survivors(where(cond("joined", "<", "2019-03-10T09:00:00+00:30")))).toEqual([]);
    expect(await survivors(where(cond("joined", "<=", "2019-03-10T09:00:00+00:30")))).toEqual(["cyd"]);
    expect(await survivors(where(cond("joined", ">=", "2021-06-15")))).toEqual(["bob", "dee"]);
    expect(await survivors(where(cond("joined", "==", 1577836800)))).toEqual(["ada"]);
    // Filter values are strings: unix seconds as a string of digits too (audit D10).
    expect(await survivors(where(cond("joined", "==", "1577836800")))).toEqual(["ada"]);
    expect(await survivors(where(cond("joined", "<", "1577836800")))).toEqual(["cyd"]);
    expect(await survivors(where(cond("joined", ">", "-86400")))).toEqual(["ada", "bob", "cyd", "dee"]);
    expect(await survivors(where(cond("joined", "!=", "2019-12-31T19:00:00-05:00")))).toEqual(["bob", "cyd", "dee"]);
  });

  it("compares IDs case-insensitively, on nodes and on edges", async () => {
    const { ada, cyd, follows } = f.data;
    expect(await survivors(where(cond("id", "==", [ada.id.toUpperCase(), cyd.id])))).toEqual(["ada", "cyd"]);
    expect(await survivors(where(cond("from_node", "==", ada.id)), { edge_type: "Follows" })).toEqual([follows[0]!.id, follows[1]!.id]);
    expect(await survivors(where(cond("since", "<", "2021-07-01T02:00:00+02:00")), { edge_type: "Follows" })).toEqual([follows[1]!.id]);
  });
});

describe("list semantics", () => {
  it("== with a list property is contains; != is contains-not", async () => {
    expect(await survivors(where(cond("tags", "==", "math")))).toEqual(["ada", "dee"]);
    expect(await survivors(where(cond("tags", "!=", "math")))).toEqual(["bob", "cyd"]);
  });

  it("== with a list value is is-one-of; != is none-of", async () => {
    expect(await survivors(where(cond("age", "==", ["17", "29"])))).toEqual(["bob", "dee"]);
    expect(await survivors(where(cond("age", "!=", ["17", "29"])))).toEqual(["ada", "cyd"]);
  });

  it("list against list holds when any pair does", async () => {
    expect(await survivors(where(cond("tags", "==", ["art", "poetry"])))).toEqual(["ada", "bob"]);
    expect(await survivors(where(cond("tags", "!=", ["art", "poetry"])))).toEqual(["cyd", "dee"]);
    expect(await survivors(where(cond("tags", ">", ["n", "z"])))).toEqual(["ada"]);
  });

  it("ordering operators hold when any pair does", async () => {
    expect(await survivors(where(cond("tags", "<", "b")))).toEqual(["bob"]);
    expect(await survivors(where(cond("tags", ">=", "math")))).toEqual(["ada", "dee"]);
    expect(await survivors(where(cond("tags", "<=", "art")))).toEqual(["bob"]);
    expect(await survivors(where(cond("age", ">", ["50", "30"])))).toEqual(["ada", "cyd"]);
    expect(await survivors(where(cond("age", "<", ["18", "30"])))).toEqual(["bob", "dee"]);
    expect(await survivors(where(cond("age", ">=", ["52", "100"])))).toEqual(["cyd"]);
    expect(await survivors(where(cond("age", "<=", ["17"])))).toEqual(["bob"]);
  });
});

describe("properties: OR over AND-groups", () => {
  it("an item passes when every condition of some group holds", async () => {
    const filter = { properties: [[cond("city", "==", "London"), cond("age", ">", "40")], [cond("city", "==", "Paris")]] };
    expect(await survivors(filter)).toEqual(["bob", "cyd"]);
    expect(await survivors(where(cond("city", "==", "London"), cond("tags", "==", "math")))).toEqual(["ada"]);
  });

  it("no groups, or an empty group, constrain nothing", async () => {
    expect(await survivors({})).toEqual(["ada", "bob", "cyd", "dee"]);
    expect(await survivors({ properties: [] })).toEqual(["ada", "bob", "cyd", "dee"]);
    expect(await survivors({ properties: [[]] })).toEqual(["ada", "bob", "cyd", "dee"]);
  });
});

describe("filter_traversals", () => {
  const followsInLondon = { properties: [[cond("city", "==", "London")]] };

  it("keeps the items from which the filtered step reaches something (args.filter)", async () => {
    const filter = {
      filter_traversals: [{ tool_name: "out_step", args: { edge_type: "node", edge_label: "Follows", filter: followsInLondon } }],
    };
    expect(await survivors(filter)).toEqual(["ada", "bob", "dee"]);
  });

  it("accepts the nested layer beside args as filters, and either step layout", async () => {
    const filter = {
      filter_traversals: [{ tool_name: "out_step", args: { edge_type: "Follows", edge_label: "node" }, filters: followsInLondon }],
    };
    expect(await survivors(filter)).toEqual(["ada", "bob", "dee"]);
  });

  it("without a nested filter, reaching anything is enough", async () => {
    expect(await survivors({ filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote" } }] })).toEqual(["ada", "cyd"]);
    expect(await survivors({ filter_traversals: [{ tool_name: "in_step", args: { edge_label: "Follows" } }] })).toEqual([
      "ada",
      "bob",
      "cyd",
    ]);
  });

  it("filters the reached items by their own type (Posts, edges)", async () => {
    const early = { properties: [[cond("published", "<", "2020-01-01T00:00:00Z")]] };
    expect(await survivors({ filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote", filter: early } }] })).toEqual([
      "cyd",
    ]);
    const recent = { properties: [[cond("since", ">=", "2022-01-01")]] };
    expect(await survivors({ filter_traversals: [{ tool_name: "out_e_step", args: { edge_label: "Follows" }, filters: recent }] })).toEqual(
      ["bob", "dee"],
    );
    expect(await survivors({ filter_traversals: [{ tool_name: "in_e_step", args: { edge_label: "Follows" }, filters: recent }] })).toEqual([
      "ada",
      "cyd",
    ]);
  });

  it("nests: users who follow someone who wrote 'Notes'", async () => {
    const wroteNotes = {
      filter_traversals: [
        { tool_name: "out_step", args: { edge_label: "Wrote", filter: { properties: [[cond("title", "==", "Notes")]] } } },
      ],
    };
    const filter = { filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Follows" }, filters: wroteNotes }] };
    expect(await survivors(filter)).toEqual(["dee"]);
  });

  it("all traversals are required, together with the properties", async () => {
    const both = {
      filter_traversals: [
        { tool_name: "out_step", args: { edge_label: "Follows" } },
        { tool_name: "out_step", args: { edge_label: "Wrote" } },
      ],
    };
    expect(await survivors(both)).toEqual(["ada"]);
    const withProperties = {
      properties: [[cond("city", "!=", "Berlin")]],
      filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Follows", filter: followsInLondon } }],
    };
    expect(await survivors(withProperties)).toEqual(["ada", "bob"]);
  });

  it("never moves the connection's traversal", async () => {
    const id = await f.init();
    await f.tool("n_from_type", { connection_id: id, data: { node_type: "User" } });
    const filter = { filter_traversals: [{ tool_name: "out_step", args: { edge_label: "Wrote" } }] };
    expect(await f.tool("filter_items", { connection_id: id, data: { filter } })).toEqual(ok({ connection_id: id, count: 2 }));
    expect(await f.tool("collect", { connection_id: id })).toEqual(ok([f.data.ada, f.data.cyd]));
  });
});
