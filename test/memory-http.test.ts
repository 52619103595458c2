// The memory tools on a running `strand serve --memory true` at /memory/mcp (Streamable HTTP,
// stateless): exact JSON-RPC answers, the SDK client over HTTP, concurrent clients (each call
// one transaction: nothing lost, no name twice), the refusals of other methods and paths, the
// endpoint's absence without --memory, and the store in <data>/memory that `strand memory` opens.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, startStrandMemory } from "./support/memory.js";
import { CLI, REPO_ROOT, SOCIAL_EXAMPLE, type StrandServer, startStrand, tempDir } from "./support/server.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function rpc(server: StrandServer, id: number, method: string, params: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/memory/mcp`, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  return { status: res.status, body: await res.json() };
}

const text = (value: unknown): string => JSON.stringify(value, null, 2);

describe("strand serve --memory: the memory tools at /memory/mcp", () => {
  let dataDir: string;
  let server: StrandServer;

  beforeAll(async () => {
    dataDir = tempDir("strand-memory-http-");
    server = await startStrand({ dataDir, extraArgs: ["--memory", "true"] });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers tools/call with the reference's JSON-RPC result, exactly", async () => {
    const entities = [{ name: "Ada", entityType: "person", observations: ["writes programs"] }];
    expect(await rpc(server, 1, "tools/call", { name: "create_entities", arguments: { entities } })).toEqual({
      status: 200,
      body: { result: { content: [{ type: "text", text: text(entities) }], structuredContent: { entities } }, jsonrpc: "2.0", id: 1 },
    });
    expect(await rpc(server, 2, "tools/call", { name: "create_entities", arguments: { entities } })).toEqual({
      status: 200,
      body: { result: { content: [{ type: "text", text: "[]" }], structuredContent: { entities: [] } }, jsonrpc: "2.0", id: 2 },
    });
    const missing = {
      observations: [
        { entityName: "Ada", contents: ["x"] },
        { entityName: "Nobody", contents: ["y"] },
      ],
    };
    expect(await rpc(server, 3, "tools/call", { name: "add_observations", arguments: missing })).toEqual({
      status: 200,
      body: { result: { content: [{ type: "text", text: "Entity with name Nobody not found" }], isError: true }, jsonrpc: "2.0", id: 3 },
    });
    const relations = [{ from: "Ada", to: "Babbage", relationType: "corresponds with" }];
    await rpc(server, 4, "tools/call", { name: "create_relations", arguments: { relations } });
    // The failed add_observations wrote nothing; the relation to a name that is no entity is kept, as the reference keeps it.
    const graph = { entities, relations };
    expect(await rpc(server, 5, "tools/call", { name: "open_nodes", arguments: { names: ["Ada", "Babbage"] } })).toEqual({
      status: 200,
      body: { result: { content: [{ type: "text", text: text(graph) }], structuredContent: graph }, jsonrpc: "2.0", id: 5 },
    });
    expect(await rpc(server, 6, "tools/call", { name: "delete_relations", arguments: { relations } })).toEqual({
      status: 200,
      body: {
        result: {
          content: [{ type: "text", text: "Relations deleted successfully" }],
          structuredContent: { success: true, message: "Relations deleted successfully" },
        },
        jsonrpc: "2.0",
        id: 6,
      },
    });
    expect(await rpc(server, 7, "tools/call", { name: "search_nodes", arguments: {} })).toEqual({
      status: 200,
      body: {
        result: {
          content: [
            {
              type: "text",
              text: "MCP error -32602: Input validation error: Invalid arguments for tool search_nodes: Invalid input: expected string, received undefined at query",
            },
          ],
          isError: true,
        },
        jsonrpc: "2.0",
        id: 7,
      },
    });
  });

  it("lists the reference's nine tools to the SDK client, and serves concurrent clients one whole call at a time", async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => connectHttp(server.url)));
    try {
      const { tools } = await clients[0]!.client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "create_entities",
        "create_relations",
        "add_observations",
        "delete_entities",
        "delete_observations",
        "delete_relations",
        "read_graph",
        "search_nodes",
        "open_nodes",
      ]);
      // Every client creates the same ten names, then adds its own observation to each: each
      // name is created once (by exactly one client), and no observation is lost.
      const names = Array.from({ length: 10 }, (_, i) => `shared-${i}`);
      const created = await Promise.all(
        clients.map((c, k) =>
          c.call("create_entities", { entities: names.map((name) => ({ name, entityType: "thing", observations: [`by ${k}`] })) }),
        ),
      );
      const winners = created.flatMap((answer) =>
        (answer.structuredContent as { entities: { name: string }[] }).entities.map((e) => e.name),
      );
      expect(winners.sort()).toEqual([...names].sort());
      await Promise.all(
        clients.map((c, k) =>
          c.call("add_observations", { observations: names.map((entityName) => ({ entityName, contents: [`seen by ${k}`] })) }),
        ),
      );
      const opened = (await clients[0]!.call("open_nodes", { names })).structuredContent as { entities: { observations: string[] }[] };
      expect(opened.entities).toHaveLength(10);
      for (const entity of opened.entities) {
        expect(entity.observations).toHaveLength(7);
        for (let k = 0; k < clients.length; k++) expect(entity.observations).toContain(`seen by ${k}`);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it("refuses other methods and paths with JSON errors", async () => {
    const get = await fetch(`${server.url}/memory/mcp`);
    expect({ status: get.status, allow: get.headers.get("allow"), body: await get.json() }).toEqual({
      status: 405,
      allow: "POST",
      body: { error: "method GET is not allowed on /memory/mcp; use POST", code: "METHOD_NOT_ALLOWED" },
    });
    const other = await fetch(`${server.url}/memory/tools`, { method: "POST", headers: HEADERS, body: "{}" });
    expect({ status: other.status, body: await other.json() }).toEqual({
      status: 404,
      body: { error: "no route for POST /memory/tools", code: "NOT_FOUND" },
    });
  });

  it("keeps the memory in <data>/memory, which strand memory opens once the server has stopped", async () => {
    await server.stop();
    const memory = await startStrandMemory(join(dataDir, "memory"));
    try {
      const graph = (await memory.call("open_nodes", { names: ["Ada"] })).structuredContent;
      expect(graph).toEqual({ entities: [{ name: "Ada", entityType: "person", observations: ["writes programs"] }], relations: [] });
    } finally {
      await memory.close();
    }
  });
});

describe("strand serve without --memory", () => {
  it("answers 404 at /memory/mcp, saying how to turn it on", async () => {
    const server = await startStrand({ project: SOCIAL_EXAMPLE });
    try {
      const res = await fetch(`${server.url}/memory/mcp`, { method: "POST", headers: HEADERS, body: "{}" });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 404,
        body: {
          error:
            "no route for POST /memory/mcp: the memory server is off (start strand serve with --memory, or set [server] memory = true)",
          code: "NOT_FOUND",
        },
      });
    } finally {
      await server.stop();
    }
  });

  it("refuses --memory on a replica: the memory's store is not replicated", () => {
    const dir = tempDir("strand-memory-follow-");
    try {
      const run = spawnSync(
        process.execPath,
        [CLI, "serve", SOCIAL_EXAMPLE, "--port", "0", "--data", dir, "--memory", "true", "--follow", "http://127.0.0.1:1"],
        { cwd: REPO_ROOT, encoding: "utf8" },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("--memory ([server] memory) is for a server on its own");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
