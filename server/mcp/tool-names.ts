// The built-in tools' names, in the order tools/list gives them: what the server knows of its
// tools before the first call loads them (service.ts), and the keys of their descriptions
// (input-schemas.ts) and functions (tool-calls.ts).
export const BUILTIN_TOOL_NAMES = [
  "init",
  "n_from_type",
  "e_from_type",
  "out_step",
  "in_step",
  "out_e_step",
  "in_e_step",
  "filter_items",
  "order_by",
  "next",
  "collect",
  "reset",
  "close",
  "schema_resource",
  "group_by",
  "aggregate_by",
  "search_vector",
  "search_vector_text",
  "search_keyword",
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
