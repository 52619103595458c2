// The memory tools' failures, in process (the SDK's in-memory transport): the error the reference
// has (add_observations to a name that is no entity) answers with its text; a failure it does not
// have (the store refusing a write, a read that runs out of time) is `{"error","code"}` JSON text,
// isError, and leaves nothing written; the service refuses a project without the memory's queries.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { StrandError } from "../core/errors.js";
import type { QueryContext } from "../core/query-context.js";
import type { QueryModule } from "../core/query-module.js";
import type { QueryStore } from "../runtime/query/query-store.js";
import { MEMORY_QUERY_NAMES } from "../server/memory/memory-queries.js";
import { MemoryService } from "../server/memory/memory-service.js";
import { createMemoryServer } from "../server/memory/tools.js";

/** Query modules that answer as the memory project's do on an empty graph. */
function emptyQueries(): QueryModule[] {
  const answers: Record<string, unknown> = {
    EntityByName: { entity: null },
    AllEntities: { entities: [] },
    SearchEntities: { entities: [] },
    AllRelations: { relations: [] },
    CounterValue: { counter: null },
  };
  return MEMORY_QUERY_NAMES.map((name) => ({
    name,
    params: [],
    writes: false,
    mcp: false,
    returns: [],
    run: () => answers[name] ?? {},
  }));
}

/** A store whose writes fail to commit with `failure` and whose reads see an empty graph. */
function failingStore(failure: StrandError): QueryStore & { writes: number } {
  const store = {
    writes: 0,
    read: <T>(fn: (db: QueryContext) => T): T => fn({} as QueryContext),
    write: <T>(_fn: (db: QueryContext) => T): Promise<T> => {
      store.writes++;
      return Promise.reject(failure);
    },
  };
  return store;
}

async function connected(service: MemoryService): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMemoryServer(service, { subscriptions: false }).connect(serverSide);
  const client = new Client({ name: "strand-memory-errors", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("memory tool errors", () => {
  it("answers a failure the reference does not have as {error, code} JSON, isError", async () => {
    const store = failingStore(new StrandError("STORAGE_FULL", "the disk is full"));
    const service = MemoryService.create(store, emptyQueries());
    if ("error" in service) throw new Error(service.error);
    const client = await connected(service);
    const entities = [{ name: "Ada", entityType: "person", observations: [] }];
    expect(await client.callTool({ name: "create_entities", arguments: { entities } })).toEqual({
      content: [{ type: "text", text: '{"error":"the disk is full","code":"STORAGE_FULL"}' }],
      isError: true,
    });
    expect(await client.callTool({ name: "delete_entities", arguments: { entityNames: ["Ada"] } })).toEqual({
      content: [{ type: "text", text: '{"error":"the disk is full","code":"STORAGE_FULL"}' }],
      isError: true,
    });
    expect(store.writes).toBe(2);
    // Reads go on: the graph is as it was.
    expect((await client.callTool({ name: "read_graph", arguments: {} })).structuredContent).toEqual({ entities: [], relations: [] });
    await client.close();
  });

  it("answers a read that fails as {error, code} JSON too", async () => {
    const store: QueryStore = {
      read: () => {
        throw new StrandError("QUERY_TIMEOUT", "the query ran longer than 60000 ms");
      },
      write: () => Promise.reject(new Error("not used")),
    };
    const service = MemoryService.create(store, emptyQueries());
    if ("error" in service) throw new Error(service.error);
    const client = await connected(service);
    expect(await client.callTool({ name: "search_nodes", arguments: { query: "tea" } })).toEqual({
      content: [{ type: "text", text: '{"error":"the query ran longer than 60000 ms","code":"QUERY_TIMEOUT"}' }],
      isError: true,
    });
    await client.close();
  });

  it("answers add_observations to a name that is no entity with the reference's text", async () => {
    const store = failingStore(new StrandError("INTERNAL", "unused"));
    store.write = <T>(fn: (db: QueryContext) => T): Promise<T> => {
      try {
        return Promise.resolve(fn({} as QueryContext));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    const service = MemoryService.create(store, emptyQueries());
    if ("error" in service) throw new Error(service.error);
    const client = await connected(service);
    expect(
      await client.callTool({ name: "add_observations", arguments: { observations: [{ entityName: "Zed", contents: ["x"] }] } }),
    ).toEqual({
      content: [{ type: "text", text: "Entity with name Zed not found" }],
      isError: true,
    });
    await client.close();
  });

  it("refuses a project without the memory's queries", () => {
    const store = failingStore(new StrandError("INTERNAL", "unused"));
    expect(MemoryService.create(store, emptyQueries().slice(2))).toEqual({
      error: "not the memory project: it lacks the queries EntityByName, EntityById",
    });
  });
});
