// What every tool function receives: the store, the schema, the live connections, the query
// runner and the embedding providers. Built once per app by McpService.
import type { QueryStore } from "../../runtime/query/query-store.js";
import type { QueryModule } from "../../core/query-module.js";
import type { EmbedderFor, QueryRunner } from "../../runtime/query/query-runner.js";
import type { JsonValue } from "../../core/schema.js";
import type { Metric } from "../../runtime/vector/metric.js";
import type { ConnectionRegistry } from "./connections.js";
import type { SchemaView } from "./schema-view.js";

export interface ToolEnv {
  readonly store: QueryStore;
  readonly schema: SchemaView;
  readonly connections: ConnectionRegistry;
  /** The answer of schema_resource (computed once). */
  readonly schemaResource: JsonValue;
  /** `#[mcp]` queries by tool name (`<QueryName>Mcp`). */
  readonly queryTools: ReadonlyMap<string, QueryModule>;
  /** Runs `#[mcp]` queries exactly as `POST /<Query>` does (embeddings included). */
  readonly runner: QueryRunner;
  /** Embedding providers by model (null: the project's default, used by search_vector_text); null when none is configured. */
  readonly embedders: EmbedderFor | null;
  /** The store's vector metric, for exact scores over held vectors (search_vector). */
  readonly vectorMetric: Metric;
  /** Whether the store keeps the BM25 index (strand.toml bm25); search_keyword needs it. */
  readonly keywordSearch: boolean;
  /** How long a write's answer is kept under its idempotency_key, in ms (http/idempotency-key.ts). */
  readonly idempotencyWindowMs: number;
}
