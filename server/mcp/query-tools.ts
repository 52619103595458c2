// `#[mcp]` queries as tools: `<QueryName>Mcp` with `{connection_id, data: {params}}` answers what
// `POST /<QueryName>` answers for those parameters: the same validation, the same QueryRunner (one
// read snapshot or one durable write transaction, after fetching the embeddings it needs).
import type { QueryModule } from "../../core/query-module.js";
import { validateParams } from "../http/params.js";
import type { JsonValue } from "../../core/schema.js";
import { invalid, isObject, member } from "./body.js";
import type { ToolEnv } from "./env.js";
import { openCall } from "./tools.js";

export const QUERY_TOOL_SUFFIX = "Mcp";

export function queryToolName(query: QueryModule): string {
  return `${query.name}${QUERY_TOOL_SUFFIX}`;
}

export async function callQueryTool(env: ToolEnv, query: QueryModule, body: unknown): Promise<JsonValue> {
  const { body: b } = openCall(env, body, ["data"]);
  const data = member(b, "data") ?? {};
  if (!isObject(data)) throw invalid("data", `an object of ${query.name}'s parameters`, data);
  return (await env.runner.run(query, validateParams(query.params, data))) as JsonValue;
}
