// The nine tools of the MCP memory server (@modelcontextprotocol/server-memory 2026.8.31) over a
// MemoryService, on the SDK's McpServer as the reference registers them: the same names, titles,
// descriptions, annotations and input and output schemas, so the SDK checks the arguments and
// words its refusals ("MCP error -32602: Input validation error: ...") exactly as it does for the
// reference. Answers have the reference's shape: the result as pretty-printed JSON text and as
// structuredContent (the delete tools: a fixed sentence and {success, message}).
//
// A failed call is an error result (isError). add_observations to a name that is no entity has
// the reference's text, "Entity with name X not found"; failures the reference does not have (a
// value the store refuses, a full disk) are `{"error","code"}` JSON text, as Strand's /mcp tools
// answer. Also as the reference: the graph is the resource memory://knowledge-graph, and (over
// stdio, where the server keeps its client) a client may subscribe to it to hear of each change.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { StrandError } from "../../core/errors.js";
import type { KnowledgeGraph } from "./graph.js";
import type { MemoryService, Outcome } from "./memory-service.js";

export const MEMORY_SERVER_INFO = { name: "strand-memory", version: "0.1.0" } as const;
export const GRAPH_RESOURCE_URI = "memory://knowledge-graph";

const entity = z.object({
  name: z.string().describe("The name of the entity"),
  entityType: z.string().describe("The type of the entity"),
  observations: z.array(z.string()).describe("An array of observation contents associated with the entity"),
});
const relation = z.object({
  from: z.string().describe("The name of the entity where the relation starts"),
  to: z.string().describe("The name of the entity where the relation ends"),
  relationType: z.string().describe("The type of the relation"),
});
const graph = { entities: z.array(entity), relations: z.array(relation) };
const done = { success: z.boolean(), message: z.string() };

const writing = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const deleting = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;
const reading = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export interface MemoryServerOptions {
  /** Offer resources/subscribe (a server that keeps its client: stdio). */
  subscriptions: boolean;
}

export function createMemoryServer(service: MemoryService, options: MemoryServerOptions): McpServer {
  const server = new McpServer(MEMORY_SERVER_INFO);
  const subscribed = new Set<string>();
  const changed = (): void => {
    if (subscribed.has(GRAPH_RESOURCE_URI)) void server.server.sendResourceUpdated({ uri: GRAPH_RESOURCE_URI });
  };
  /** A write's answer: `shape` of its value, or the error result; a change is announced. */
  const wrote = <T>(outcome: Outcome<T>, shape: (value: T) => CallToolResult): CallToolResult => {
    if (!outcome.ok) return failed(outcome);
    changed();
    return shape(outcome.value);
  };

  server.registerTool(
    "create_entities",
    {
      title: "Create Entities",
      description: "Create multiple new entities in the knowledge graph",
      inputSchema: { entities: z.array(entity) },
      outputSchema: { entities: z.array(entity) },
      annotations: writing,
    },
    async ({ entities }) => wrote(await service.createEntities(entities), (added) => structured(added, { entities: added })),
  );
  server.registerTool(
    "create_relations",
    {
      title: "Create Relations",
      description: "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice",
      inputSchema: { relations: z.array(relation) },
      outputSchema: { relations: z.array(relation) },
      annotations: writing,
    },
    async ({ relations }) => wrote(await service.createRelations(relations), (added) => structured(added, { relations: added })),
  );
  server.registerTool(
    "add_observations",
    {
      title: "Add Observations",
      description: "Add new observations to existing entities in the knowledge graph",
      inputSchema: {
        observations: z.array(
          z.object({
            entityName: z.string().describe("The name of the entity to add the observations to"),
            contents: z.array(z.string()).describe("An array of observation contents to add"),
          }),
        ),
      },
      outputSchema: { results: z.array(z.object({ entityName: z.string(), addedObservations: z.array(z.string()) })) },
      annotations: writing,
    },
    async ({ observations }) => wrote(await service.addObservations(observations), (results) => structured(results, { results })),
  );
  server.registerTool(
    "delete_entities",
    {
      title: "Delete Entities",
      description: "Delete multiple entities and their associated relations from the knowledge graph",
      inputSchema: { entityNames: z.array(z.string()).describe("An array of entity names to delete") },
      outputSchema: done,
      annotations: deleting,
    },
    async ({ entityNames }) => wrote(await service.deleteEntities(entityNames), () => success("Entities deleted successfully")),
  );
  server.registerTool(
    "delete_observations",
    {
      title: "Delete Observations",
      description: "Delete specific observations from entities in the knowledge graph",
      inputSchema: {
        deletions: z.array(
          z.object({
            entityName: z.string().describe("The name of the entity containing the observations"),
            observations: z.array(z.string()).describe("An array of observations to delete"),
          }),
        ),
      },
      outputSchema: done,
      annotations: deleting,
    },
    async ({ deletions }) => wrote(await service.deleteObservations(deletions), () => success("Observations deleted successfully")),
  );
  server.registerTool(
    "delete_relations",
    {
      title: "Delete Relations",
      description: "Delete multiple relations from the knowledge graph",
      inputSchema: { relations: z.array(relation).describe("An array of relations to delete") },
      outputSchema: done,
      annotations: deleting,
    },
    async ({ relations }) => wrote(await service.deleteRelations(relations), () => success("Relations deleted successfully")),
  );
  server.registerTool(
    "read_graph",
    { title: "Read Graph", description: "Read the entire knowledge graph", inputSchema: {}, outputSchema: graph, annotations: reading },
    async () => answered(await service.readGraph()),
  );
  server.registerTool(
    "search_nodes",
    {
      title: "Search Nodes",
      description: "Search for nodes in the knowledge graph based on a query",
      inputSchema: {
        query: z.string().describe("The search query to match against entity names, types, and observation content"),
      },
      outputSchema: graph,
      annotations: reading,
    },
    async ({ query }) => answered(await service.searchNodes(query)),
  );
  server.registerTool(
    "open_nodes",
    {
      title: "Open Nodes",
      description: "Open specific nodes in the knowledge graph by their names",
      inputSchema: { names: z.array(z.string()).describe("An array of entity names to retrieve") },
      outputSchema: graph,
      annotations: reading,
    },
    async ({ names }) => answered(await service.openNodes(names)),
  );

  server.registerResource(
    "knowledge-graph",
    GRAPH_RESOURCE_URI,
    { title: "Knowledge Graph", description: "The full knowledge graph with all entities and relations", mimeType: "application/json" },
    async (uri) => {
      const outcome = await service.readGraph();
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.error.toJSON()));
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(outcome.value, null, 2) }] };
    },
  );
  if (options.subscriptions) {
    server.server.registerCapabilities({ resources: { subscribe: true } });
    server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
      subscribed.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      subscribed.delete(request.params.uri);
      return {};
    });
  }
  return server;
}

function structured(value: unknown, content: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: content };
}

function success(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], structuredContent: { success: true, message } };
}

function answered(outcome: Outcome<KnowledgeGraph>): CallToolResult {
  return outcome.ok ? structured(outcome.value, { ...outcome.value }) : failed(outcome);
}

/** NOT_FOUND is the reference's own error: its message alone; any other is `{"error","code"}`. */
function failed(outcome: { ok: false; error: StrandError }): CallToolResult {
  const { error } = outcome;
  const text = error.code === "NOT_FOUND" ? error.message : JSON.stringify(error.toJSON());
  return { content: [{ type: "text", text }], isError: true };
}
