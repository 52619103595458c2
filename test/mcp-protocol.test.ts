// The MCP protocol server, driven by the SDK's own client: over Streamable HTTP against an
// in-process server (POST /mcp), and over stdio by spawning `strand mcp --stdio` (built dist/).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../runtime/http/index.js";
import { BUILTIN_TOOL_NAMES } from "../runtime/mcp/service.js";
import { GraphStore } from "../runtime/store/graph-store.js";
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
    expect(json(gone)).toEqual({ error: "unknown connection_id 'nope' (never created, or expired after being idle)", code: "UNKNOWN_CONNECTION" });
  });
});

describe("MCP over stdio (strand mcp --stdio)", () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "strand-mcp-stdio-"));
    const project = join(dir, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "schema.hx"),
      "N::User { INDEX city: String, name: String }\nE::Follows { From: User, To: User }\n",
    );
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
      new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", "--stdio", project, "--data", join(dir, "data")], stderr: "pipe" }),
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
    const added = json(await client.callTool({ name: "AddUserMcp", arguments: { connection_id: id, data: { name: "Ada", city: "London" } } })) as {
      user: { id: string };
    };
    expect(added).toEqual({ user: { id: added.user.id, label: "User", city: "London", name: "Ada" } });
    expect(json(await client.callTool({ name: "n_from_type", arguments: { connection_id: id, data: { node_type: "User" } } }))).toEqual({
      connection_id: id,
      count: 1,
    });
  });
});
