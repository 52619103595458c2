// `strand memory` over stdio where it differs from the reference on purpose, and what the
// differential test cannot see: a name or relation listed twice in one create call is added once
// (server/memory/graph-writes.ts); search_nodes ranks by BM25 and finds a superset for several
// words (server/memory/search.ts); a failed call writes nothing; the graph is also the resource
// memory://knowledge-graph, with subscriptions; one process per data directory.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWNER_FILE } from "../runtime/store/derived-files.js";
import { type MemoryClient, startStrandMemory } from "./support/memory.js";
import { CLI, REPO_ROOT, tempDir } from "./support/server.js";

type Graph = { entities: { name: string; entityType: string; observations: string[] }[]; relations: unknown[] };

describe("strand memory over stdio", () => {
  let dir: string;
  let memory: MemoryClient;
  const graph = async (): Promise<Graph> => (await memory.call("read_graph", {})).structuredContent as Graph;

  beforeAll(async () => {
    dir = tempDir("strand-memory-stdio-");
    memory = await startStrandMemory(join(dir, "data"));
  });

  afterAll(async () => {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds a name, or a relation, listed twice in one call once (the reference adds it twice)", async () => {
    const ada = { name: "Ada", entityType: "person", observations: ["likes tea"] };
    const created = await memory.call("create_entities", { entities: [ada, { ...ada, entityType: "robot" }] });
    expect(created.structuredContent).toEqual({ entities: [ada] });
    const knows = { from: "Ada", to: "Ada", relationType: "knows" };
    expect((await memory.call("create_relations", { relations: [knows, knows] })).structuredContent).toEqual({ relations: [knows] });
    expect(await graph()).toEqual({ entities: [ada], relations: [knows] });
    await memory.call("delete_entities", { entityNames: ["Ada"] });
    expect(await graph()).toEqual({ entities: [], relations: [] });
  });

  it("writes nothing when add_observations fails on a later item", async () => {
    await memory.call("create_entities", { entities: [{ name: "Bob", entityType: "person", observations: [] }] });
    const failed = await memory.call("add_observations", {
      observations: [
        { entityName: "Bob", contents: ["first"] },
        { entityName: "Nobody", contents: ["second"] },
      ],
    });
    expect(failed).toEqual({ content: [{ type: "text", text: "Entity with name Nobody not found" }], isError: true });
    expect((await memory.call("open_nodes", { names: ["Bob"] })).structuredContent).toEqual({
      entities: [{ name: "Bob", entityType: "person", observations: [] }],
      relations: [],
    });
    await memory.call("delete_entities", { entityNames: ["Bob"] });
  });

  it("ranks search_nodes by BM25, then the substring-only matches; several words find any of them", async () => {
    await memory.call("create_entities", {
      entities: [
        { name: "Teapot", entityType: "thing", observations: ["holds water"] },
        { name: "Carol", entityType: "person", observations: ["drinks tea", "tea every morning", "tea at noon"] },
        { name: "Dave", entityType: "person", observations: ["drinks coffee"] },
        { name: "Eve", entityType: "person", observations: ["likes tea"] },
      ],
    });
    const names = async (query: string): Promise<string[]> =>
      ((await memory.call("search_nodes", { query })).structuredContent as Graph).entities.map((e) => e.name);
    // Carol holds "tea" most often; "Teapot" holds it only as a substring (the reference's match), so it comes last.
    expect(await names("tea")).toEqual(["Carol", "Eve", "Teapot"]);
    // The reference finds neither ("coffee water" is no substring of anything).
    expect((await names("coffee water")).sort()).toEqual(["Dave", "Teapot"]);
    await memory.call("delete_entities", { entityNames: ["Teapot", "Carol", "Dave", "Eve"] });
  });

  it("serves the graph as the resource memory://knowledge-graph and tells a subscriber of each change", async () => {
    const updates: string[] = [];
    memory.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await memory.client.subscribeResource({ uri: "memory://knowledge-graph" });
    await memory.call("create_entities", { entities: [{ name: "Fay", entityType: "person", observations: [] }] });
    const read = await memory.client.readResource({ uri: "memory://knowledge-graph" });
    const want = { entities: [{ name: "Fay", entityType: "person", observations: [] }], relations: [] };
    expect(read.contents).toEqual([{ uri: "memory://knowledge-graph", mimeType: "application/json", text: JSON.stringify(want, null, 2) }]);
    // The notification was sent before the call's answer, on the same pipe: it has arrived.
    expect(updates).toEqual(["memory://knowledge-graph"]);
    await memory.client.unsubscribeResource({ uri: "memory://knowledge-graph" });
  });

  it("refuses a second process on the same data directory, naming the holder", () => {
    const run = spawnSync(process.execPath, [CLI, "memory", "--data", join(dir, "data")], { cwd: REPO_ROOT, encoding: "utf8", input: "" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^strand: cannot open the memory data directory .*: data directory .* is in use by process \d+; stop that server first\n$/,
    );
  });

  it("refuses another project's data directory", () => {
    const data = join(dir, "project-data");
    mkdirSync(data);
    writeFileSync(join(data, OWNER_FILE), `${JSON.stringify({ project: join(REPO_ROOT, "examples/social") })}\n`);
    const run = spawnSync(process.execPath, [CLI, "memory", "--data", data], { cwd: REPO_ROOT, encoding: "utf8", input: "" });
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 1,
      stderr: `strand: the data directory ${data} holds another project's data; give the memory a directory of its own with --data\n`,
    });
  });
});
