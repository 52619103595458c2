// What every tool function receives: the store, the schema, the live connections and the
// optional text embedder. Built once per app by McpService.
import type { StoreAccess } from "../http/store-access.js";
import type { QueryModule } from "../query-module.js";
import type { JsonValue } from "../schema.js";
import type { ConnectionRegistry } from "./connections.js";
import type { SchemaView } from "./schema-view.js";

/** Turns texts into embeddings (one vector per text); runtime/embed's embedders satisfy it. */
export interface TextEmbedder {
  embed(texts: string[]): Promise<number[][]>;
}

export interface ToolEnv {
  readonly store: StoreAccess;
  readonly schema: SchemaView;
  readonly connections: ConnectionRegistry;
  /** The answer of schema_resource (computed once). */
  readonly schemaResource: JsonValue;
  /** `#[mcp]` queries by tool name (`<QueryName>Mcp`). */
  readonly queryTools: ReadonlyMap<string, QueryModule>;
  readonly embedder: TextEmbedder | undefined;
}
