// The queries of the built-in LangGraph project (templates/langgraph/queries.hx) the routes are
// made of, bound once when the store opens.
import type { QueryModule } from "../../core/query-module.js";
import { BoundQueries } from "./bound-queries.js";

export const LANGGRAPH_QUERY_NAMES = [
  "CheckpointByKey",
  "CheckpointsOfThread",
  "AllCheckpoints",
  "PutCheckpoint",
  "ChannelValueByKey",
  "PutChannelValue",
  "WritesOfCheckpoint",
  "WriteByKey",
  "PutWrite",
  "DropThread",
  "ItemByKey",
  "AllItems",
  "AddItemPrefix",
  "ItemsUnder",
  "PutItem",
  "SetItemExpiry",
  "DropItem",
  "ExpiredItems",
] as const;

export type LangGraphQueryName = (typeof LANGGRAPH_QUERY_NAMES)[number];
export type LangGraphQueries = BoundQueries<LangGraphQueryName>;

export function bindLangGraphQueries(queries: readonly QueryModule[]): LangGraphQueries | { missing: string[] } {
  return BoundQueries.bind("LangGraph", LANGGRAPH_QUERY_NAMES, queries);
}
