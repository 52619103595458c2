// What runs each call: the built-in tools' functions by name, and `#[mcp]` queries as tools.
// Loaded (with zod, which the tools' inputs are described in) by the first call (service.ts).
import { idempotencyKeyOf, keyedRun } from "../http/idempotency-key.js";
import { requireWriteScope } from "../http/caller.js";
import type { QueryModule } from "../../core/query-module.js";
import type { JsonValue } from "../../core/schema.js";
import { validateParams } from "../http/params.js";
import type { ToolEnv } from "./env.js";
import { queryCallInput } from "./input-schemas.js";
import { queryToolName } from "./query-tools.js";
import { searchKeyword, searchVector, searchVectorText } from "./search-tools.js";
import type { BuiltinToolName } from "./tool-names.js";
import * as tools from "./tools.js";

/** `client` identifies the caller (client-id.ts); init counts the new connection against it. */
export type ToolFn = (env: ToolEnv, body: unknown, client: string) => JsonValue | Promise<JsonValue>;

export const BUILTIN_CALLS: Readonly<Record<BuiltinToolName, ToolFn>> = {
  init: tools.init,
  n_from_type: tools.nFromType,
  e_from_type: tools.eFromType,
  out_step: tools.step("out_step"),
  in_step: tools.step("in_step"),
  out_e_step: tools.step("out_e_step"),
  in_e_step: tools.step("in_e_step"),
  filter_items: tools.filterItems,
  order_by: tools.orderBy,
  next: tools.next,
  collect: tools.collect,
  reset: tools.reset,
  close: tools.close,
  schema_resource: tools.schemaResource,
  group_by: tools.groupByTool,
  aggregate_by: tools.aggregateByTool,
  search_vector: searchVector,
  search_vector_text: searchVectorText,
  search_keyword: searchKeyword,
};

const queryInputs = new WeakMap<QueryModule, ReturnType<typeof queryCallInput>>();

/**
 * `<QueryName>Mcp` with `{connection_id, data: {params}}` answers what `POST /<QueryName>` answers
 * for those parameters: the same validation, the same QueryRunner (one read snapshot or one
 * durable write transaction, after fetching the embeddings it needs).
 */
export async function callQueryTool(env: ToolEnv, query: QueryModule, body: unknown): Promise<JsonValue> {
  let schema = queryInputs.get(query);
  if (schema === undefined) {
    schema = queryCallInput(query.name);
    queryInputs.set(query, schema);
  }
  if (query.writes) requireWriteScope(`the tool ${queryToolName(query)} (it writes)`);
  const { input } = tools.openCall(env, schema, body);
  const params = validateParams(query.params, input.data ?? {});
  const key = query.writes ? idempotencyKeyOf(input.idempotency_key ?? undefined) : undefined;
  if (key === undefined) return (await env.runner.run(query, params)) as JsonValue;
  return (await env.runner.runOnce(query, params, keyedRun(key, query.name, params, env.idempotencyWindowMs))).result as JsonValue;
}
