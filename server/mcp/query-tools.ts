// `#[mcp]` queries are tools named `<QueryName>Mcp` (tool-calls.ts runs them).
import type { QueryModule } from "../../core/query-module.js";

export const QUERY_TOOL_SUFFIX = "Mcp";

export function queryToolName(query: QueryModule): string {
  return `${query.name}${QUERY_TOOL_SUFFIX}`;
}
