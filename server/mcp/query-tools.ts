// `#[mcp]` queries are tools named `<QueryName>Mcp` (tool-calls.ts runs them): their input is
// validated like `POST /<Name>` (http/params.ts) and runs through the same QueryRunner (one read
// snapshot or one durable write).
import type { QueryModule } from "../../core/query-module.js";

export const QUERY_TOOL_SUFFIX = "Mcp";

export function queryToolName(query: QueryModule): string {
  return `${query.name}${QUERY_TOOL_SUFFIX}`;
}
