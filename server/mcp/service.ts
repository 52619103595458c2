// The agent tools behind one name → function table, shared by the `/mcp/<tool>` HTTP routes and
// the MCP protocol server: `call(tool, body)` validates the body, runs the tool and returns JSON
// (or throws a StrandError naming the culprit). It owns the ToolEnv (env.ts): the store, the
// schema view, the connections, the app's QueryRunner, the embedders, the vector metric and whether
// keyword search is on. `schema_resource` answers the schema and every query's {name, parameters,
// returns} (all queries, #[mcp] or not), computed once per service.
import { DEFAULT_IDEMPOTENCY_WINDOW_MS } from "../http/idempotency-key.js";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { QueryStore } from "../../runtime/query/query-store.js";
import { introspect } from "../http/introspect.js";
import type { QueryModule } from "../../core/query-module.js";
import type { JsonValue, SchemaDescriptor } from "../../core/schema.js";
import { closestName } from "../../core/suggest.js";
import { vectorAnswerShaper } from "../../core/vector-score.js";
import { ConnectionRegistry, LOCAL_CLIENT, type ConnectionOptions } from "./connections.js";
import type { ToolEnv } from "./env.js";
import { QueryRunner, type EmbedderFor } from "../../runtime/query/query-runner.js";
import { QUERY_TOOL_SUFFIX, queryToolName } from "./query-tools.js";
import { SchemaView } from "./schema-view.js";
import { BUILTIN_TOOL_NAMES, isBuiltinToolName } from "./tool-names.js";
import { DEFAULT_VECTOR_OPTIONS, type Metric } from "../../runtime/vector/metric.js";
import { pinnedCall, type CommitView } from "./pinning.js";

export { BUILTIN_TOOL_NAMES } from "./tool-names.js";

/**
 * The tools themselves (and zod, which their inputs are described in) are loaded by the first
 * call, as the MCP protocol module is (routes.ts): most servers never see one.
 */
let calls: Promise<typeof import("./tool-calls.js")> | null = null;
const loadCalls = (): Promise<typeof import("./tool-calls.js")> => (calls ??= import("./tool-calls.js"));

export interface McpServiceOptions {
  store: QueryStore;
  schema: SchemaDescriptor;
  queries: readonly QueryModule[];
  connections?: ConnectionOptions | undefined;
  /** Embedding providers (AppOptions.embedders); search_vector_text uses the default model's. */
  embedders?: EmbedderFor | null | undefined;
  /** The runner of `POST /<Query>`, so `#[mcp]` queries share its embedding cache; default: a new one. */
  runner?: QueryRunner | undefined;
  /** The metric the store's vector types use (strand.toml [vector] metric); default cosine, as the store's. */
  vectorMetric?: Metric | undefined;
  /**
   * Whether the store keeps the BM25 index (strand.toml bm25, default true). When false,
   * search_keyword is left out of the tool list and answers 400 BM25_DISABLED.
   */
  bm25?: boolean | undefined;
  /** The node's commit sequence (a replicating server): connections are pinned to what they saw. */
  commits?: CommitView | undefined;
  /** Whether vector records in tool answers carry their embedding, `data` (AppOptions.vectorDataInAnswers; default true). */
  vectorDataInAnswers?: boolean | undefined;
  /** How long a write's answer is kept under its idempotency_key (AppOptions.idempotencyWindowMs; default a day). */
  idempotencyWindowMs?: number | undefined;
}

export class McpService {
  readonly env: ToolEnv;
  /** Queries without `#[mcp]`, to explain why `<Name>Mcp` is not a tool. */
  private readonly unmarked: ReadonlySet<string>;
  private readonly commits: CommitView | undefined;
  /** A tool's answer as it leaves: every vector in it carries `score`, and `data` unless left out (core/vector-score.ts). */
  private readonly shape: (answer: unknown) => unknown;

  constructor(options: McpServiceOptions) {
    const mcpQueries = options.queries.filter((q) => q.mcp);
    const queryTools = new Map(mcpQueries.map((q) => [queryToolName(q), q]));
    this.unmarked = new Set(options.queries.filter((q) => !q.mcp).map((q) => q.name));
    this.commits = options.commits;
    const vectors = { labels: options.schema.vectors.map((v) => v.name), data: options.vectorDataInAnswers };
    this.shape = vectorAnswerShaper(vectors.labels, vectors.data !== false);
    // Every query, #[mcp] or not: an agent reads what the project can answer (the service
    // description's schema resource); only #[mcp] queries are callable as <Name>Mcp tools.
    const description = introspect(options.schema, options.queries);
    this.env = {
      store: options.store,
      schema: new SchemaView(options.schema),
      connections: new ConnectionRegistry(options.connections),
      // Edges keep their from/to: an agent needs them to choose a step's direction.
      schemaResource: description as unknown as JsonValue,
      queryTools,
      runner: options.runner ?? new QueryRunner(options.store, options.embedders ?? null, vectors),
      embedders: options.embedders ?? null,
      vectorMetric: options.vectorMetric ?? DEFAULT_VECTOR_OPTIONS.metric,
      keywordSearch: options.bm25 !== false,
      idempotencyWindowMs: options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS,
    };
  }

  /** Built-in tools (search_keyword only with the BM25 index), then one `<QueryName>Mcp` per `#[mcp]` query. */
  toolNames(): string[] {
    const builtin = BUILTIN_TOOL_NAMES.filter((name) => this.env.keywordSearch || name !== "search_keyword");
    return [...builtin, ...this.env.queryTools.keys()];
  }

  /** The `#[mcp]` query behind a tool name, if it is one. */
  queryTool(name: string): QueryModule | undefined {
    return this.env.queryTools.get(name);
  }

  call(name: string, body: unknown, client: string = LOCAL_CLIENT): Promise<JsonValue> {
    if (this.commits === undefined) return this.run(name, body, client);
    return pinnedCall(this.commits, this.env.connections, name, body, () => this.run(name, body, client));
  }

  private async run(name: string, body: unknown, client: string): Promise<JsonValue> {
    if (isBuiltinToolName(name)) {
      const result = await (await loadCalls()).BUILTIN_CALLS[name](this.env, body, client);
      return this.shape(result) as JsonValue;
    }
    const query = this.env.queryTools.get(name);
    if (query !== undefined) return (await loadCalls()).callQueryTool(this.env, query, body);
    const base = name.endsWith(QUERY_TOOL_SUFFIX) ? name.slice(0, -QUERY_TOOL_SUFFIX.length) : "";
    if (this.unmarked.has(base)) {
      throw new StrandError("UNKNOWN_TOOL", `unknown MCP tool '${echo(name)}': query ${base} is not marked #[mcp]`);
    }
    const suggestion = closestName(name, this.toolNames());
    throw new StrandError(
      "UNKNOWN_TOOL",
      suggestion === undefined ? `unknown MCP tool '${echo(name)}'` : `unknown MCP tool '${echo(name)}'; did you mean '${suggestion}'?`,
    );
  }
}
