// Finds the graph items in any JSON answer (a query's RETURN object, search results): every object
// with a string `id` and `label`; those with `from_node`/`to_node` are edges.
import type { Item } from "./api.js";

export function itemsIn(value: unknown): { nodes: Item[]; edges: Item[] } {
  const nodes: Item[] = [];
  const edges: Item[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (typeof o.id === "string" && typeof o.label === "string") {
      const item = o as Item;
      if (typeof o.from_node === "string" && typeof o.to_node === "string") edges.push(item);
      else nodes.push(item);
    }
    for (const x of Object.values(o)) walk(x);
  };
  walk(value);
  return { nodes, edges };
}
