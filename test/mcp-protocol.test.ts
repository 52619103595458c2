// The MCP protocol server, driven by the SDK's own client: over Streamable HTTP against an
// in-process server (POST /mcp), and over stdio by spawning `strand mcp --stdio` (built dist/).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../server/index.js";
import { BUILTIN_TOOL_NAMES } from "../server/mcp/service.js";
import { GraphStore } from "../runtime/graph-store.js";
import { queries, schema, seed, type Seeded } from "./support/mcp-fixture.js";
import { CLI } from "./support/server.js";

interface TextResult {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** The JSON inside a tool result's single text content. */
function json(result: unknown): unknown {
  const r = result as TextResult;
  expect(r.content).toHaveLength(1);
  expect(r.content[0]!.type).toBe("text");
  return JSON.parse(r.content[0]!.text!) as unknown;
}

describe("MCP over Streamable HTTP", () => {
  let dir: string;
  let store: GraphStore;
  let server: RunningServer;
  let data: Seeded;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-mcp-proto-"));
    store = GraphStore.open({ path: dir, schema });
    data = await seed(store);
    server = await startServer({ store, schema, queries, port: 0 });
    client = new Client({ name: "strand-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`)));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists every tool and the #[mcp] queries, with input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES, "UsersInCityMcp", "AddPostMcp"]);
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("n_from_type")!.inputSchema).toMatchObject({
      type: "object",
      properties: {
        connection_id: { type: "string" },
        data: { type: "object", properties: { node_type: { type: "string" } }, required: ["node_type"] },
      },
      required: ["connection_id", "data"],
    });
    expect(byName.get("UsersInCityMcp")!.inputSchema).toMatchObject({
      properties: { data: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      required: ["connection_id", "data"],
    });
    const addPost = byName.get("AddPostMcp")!.inputSchema as unknown as { properties: { data: { required?: string[] } } };
    expect(addPost.properties.data.required).toEqual(["title"]);
    // The recursive filter layer is described too.
    expect(JSON.stringify(byName.get("filter_items")!.inputSchema)).toContain("filter_traversals");
  });

  it("calls init, n_from_type, collect and a #[mcp] query", async () => {
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    expect(typeof id).toBe("string");
    expect(json(await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "User" } } }))).toEqual({
      connection_id: id,
      count: 4,
    });
    expect(json(await client.callTool({ name: "collect", arguments: { connection_id: id, range: { start: 0, end: 2 } } }))).toEqual([
      data.ada,
      data.bob,
    ]);
    expect(json(await client.callTool({ name: "UsersInCityMcp", arguments: { connection_id: id, data: { city: "London" } } }))).toEqual({
      users: [data.ada, data.cyd],
    });
  });

  it("answers errors as error results carrying the same JSON as the HTTP endpoints", async () => {
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    const result = await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "Usr" } } });
    expect(result.isError).toBe(true);
    expect(json(result)).toEqual({ error: "'data.node_type': unknown node type 'Usr'; did you mean 'User'?", code: "INVALID_PARAMETER" });
    const gone = await client.callTool({ name: "next", arguments: { connection_id: "nope" } });
    expect(gone.isError).toBe(true);
    expect(json(gone)).toEqual({
      error: "unknown connection_id 'nope' (never created, or expired after being idle)",
      code: "UNKNOWN_CONNECTION",
    });
  });
});

describe("MCP over Streamable HTTP: errors have one shape (audit D1, D3, D8, D10)", () => {
  let dir: string;
  let store: GraphStore;
  let server: RunningServer;
  let client: Client;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-mcp-proto-errors-"));
    store = GraphStore.open({ path: dir, schema, bm25: false });
    await seed(store);
    server = await startServer({ store, schema, queries, port: 0, bm25: false });
    url = `http://127.0.0.1:${server.port}/mcp`;
    client = new Client({ name: "strand-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const failed = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, name).toBe(true);
    return json(result);
  };

  it("arguments the input schema describes as wrong get the tools' own {error, code}, not the SDK's text", async () => {
    expect(await failed("next", {})).toEqual({ error: "missing 'connection_id' (the id init returned)", code: "MISSING_PARAMETER" });
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    expect(json(await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "User" } } }))).toEqual({
      connection_id: id,
      count: 4,
    });
    expect(
      await failed("filter_items", { connection_id: id, data: { filter: { properties: [[{ key: "age", operator: "=~", value: "3" }]] } } }),
    ).toEqual({
      error: `'data.filter.properties[0][0].operator' must be one of == != > >= < <=, got "=~"`,
      code: "INVALID_PARAMETER",
    });
    expect(await failed("next", { connection_id: id, extra: 1 })).toEqual({
      error: "unknown member 'extra' (expected: connection_id)",
      code: "UNKNOWN_PARAMETER",
    });
    expect(await failed("UsersInCityMcp", { connection_id: id, data: { city: 5 } })).toEqual({
      error: "parameter 'city' must be a string (String), got 5",
      code: "INVALID_PARAMETER",
    });
    expect(await failed("frobnicate", {})).toEqual({ error: "unknown MCP tool 'frobnicate'", code: "UNKNOWN_TOOL" });
    // None of that touched the traversal.
    expect(json(await client.callTool({ name: "collect", arguments: { connection_id: id, range: { end: 1 } } }))).toEqual([
      (await store.read((db) => db.nodesByLabel("User")))[0],
    ]);
  });

  it("a filter nested 1500 deep is the same 400 JSON as over POST /mcp/filter_items", async () => {
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "User" } } });
    // Written as text: JSON.stringify (the SDK client's too) cannot write a value this deep.
    const open = '{"filter_traversals":[{"tool_name":"out_step","args":{"edge_label":"Follows","filter":';
    const filter = `${open.repeat(1500)}{}${"}}]}".repeat(1500)}`;
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"filter_items","arguments":{"connection_id":"${id}","data":{"filter":${filter}}}}}`,
    });
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { id: number; result: unknown };
    expect(reply.id).toBe(7);
    expect(reply.result).toMatchObject({ isError: true });
    const path = `data.filter${".filter_traversals[0].args.filter".repeat(32)}.filter_traversals`;
    expect(json(reply.result)).toEqual({ error: `'${path}': filter_traversals nest at most 32 levels deep`, code: "INVALID_PARAMETER" });
    expect(json(await client.callTool({ name: "collect", arguments: { connection_id: id } }))).toHaveLength(4);
  });

  it("with bm25 = false, search_keyword is not listed, and calling it says how to enable it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES.filter((n) => n !== "search_keyword"), "UsersInCityMcp", "AddPostMcp"]);
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    const disabled = {
      error:
        "search_keyword needs the BM25 keyword index, which this project disables (bm25 = false): set bm25 = true in strand.toml (or helix.toml) and restart to build it",
      code: "BM25_DISABLED",
    };
    expect(await failed("search_keyword", { connection_id: id, data: { query: "ada", label: "User", limit: 3 } })).toEqual(disabled);
    const res = await fetch(`http://127.0.0.1:${server.port}/mcp/search_keyword`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ connection_id: id, data: { query: "ada", label: "User", limit: 3 } }),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 400, body: disabled });
  });

  it("GET and DELETE /mcp answer 405 JSON with Allow: POST (no event stream, no session)", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const res = await fetch(url, { method, headers: { accept: "application/json, text/event-stream" } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toEqual({ error: `method ${method} is not allowed on /mcp; use POST`, code: "METHOD_NOT_ALLOWED" });
    }
  });
});

describe("MCP over stdio (strand mcp --stdio)", () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-mcp-stdio-"));
    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(join(project, "schema.hx"), "N::User { INDEX city: String, name: String }\nE::Follows { From: User, To: User }\n");
    writeFileSync(
      join(project, "queries.hx"),
      [
        "#[mcp]",
        "QUERY AddUser(name: String, city: String) =>",
        "    user <- AddN<User>({name: name, city: city})",
        "    RETURN user",
        "",
        "QUERY CountUsers() =>",
        "    total <- N<User>::COUNT",
        "    RETURN total",
        "",
      ].join("\n"),
    );
    client = new Client({ name: "strand-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--stdio", project, "--data", join(dir, "data")],
        stderr: "pipe",
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the tools and calls two of them", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES, "AddUserMcp"]);
    const id = json(await client.callTool({ name: "init", arguments: {} })) as string;
    const added = json(
      await client.callTool({ name: "AddUserMcp", arguments: { connection_id: id, data: { name: "Ada", city: "London" } } }),
    ) as {
      user: { id: string };
    };
    expect(added).toEqual({ user: { id: added.user.id, label: "User", city: "London", name: "Ada" } });
    expect(json(await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "User" } } }))).toEqual({
      connection_id: id,
      count: 1,
    });
  });
});

describe("strand mcp --stdio with bm25 = false and the /mcp connection settings (audit D3, D5)", () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-mcp-stdio-config-"));
    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(join(project, "schema.hx"), "N::User { name: String }\n");
    writeFileSync(join(project, "queries.hx"), "QUERY CountUsers() =>\n    total <- N<User>::COUNT\n    RETURN total\n");
    writeFileSync(join(project, "strand.toml"), "bm25 = false\nmcp_idle_timeout_seconds = 60\nmcp_max_connections = 1\n");
    client = new Client({ name: "strand-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, "mcp", "--stdio", project, "--data", join(dir, "data")],
        stderr: "pipe",
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("leaves search_keyword out and caps the connections as configured", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(BUILTIN_TOOL_NAMES.filter((n) => n !== "search_keyword"));
    expect(typeof json(await client.callTool({ name: "init", arguments: {} }))).toBe("string");
    const second = await client.callTool({ name: "init", arguments: {} });
    expect(second.isError).toBe(true);
    expect(json(second)).toEqual({
      error: "too many open connections (limit 1); idle ones expire after 60000 ms",
      code: "TOO_MANY_CONNECTIONS",
    });
  });
});
