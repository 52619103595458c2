// What a traversal holds of each item: its id and label (and the score a search gave it), not a
// copy of the record. A copy took ~450 bytes; 480 connections each holding a 19.6k-node type took
// 4.1 GiB and the process died. Records are read again, through the store's read
// cache, when a tool needs them (a step, a filter, next, collect), so they show writes made since
// the traversal was built, and an item deleted since is no longer there.
import { isStrandError } from "../../core/errors.js";
import type { GraphItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import type { SchemaView } from "./schema-view.js";

export interface HeldItem {
  readonly id: string;
  readonly label: string;
  /** The score of the search that found it, returned with the record. */
  readonly score?: number;
}

/**
 * A copy of `text` in a string of its own. A decoded record's id is a slice of a larger string
 * that it keeps alive: holding it took ~400 bytes an item, a copy ~130 (measured over 392k items).
 */
function ownCopy(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** The held form of `item`; the label is the schema's own string, so every held item shares it. */
export function heldItem(item: GraphItem, schema: SchemaView): HeldItem {
  const label = schema.get(item.label)?.name ?? item.label;
  const id = ownCopy(item.id);
  return typeof item.score === "number" ? { id, label, score: item.score } : { id, label };
}

export function heldItems(items: readonly GraphItem[], schema: SchemaView): HeldItem[] {
  return items.map((item) => heldItem(item, schema));
}

/** The record of a held item as stored now (with its search score), or null when it was deleted since. */
export function recordOf(db: QueryContext, schema: SchemaView, held: HeldItem): GraphItem | null {
  let record: GraphItem;
  try {
    const kind = schema.get(held.label)?.kind;
    record =
      kind === "edge"
        ? db.edgeById(held.label, held.id)
        : kind === "vector"
          ? db.vectorById(held.label, held.id)
          : db.nodeById(held.label, held.id);
  } catch (error) {
    if (isStrandError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
  return held.score === undefined ? record : { ...record, score: held.score };
}

/** The records of the held items still stored, in order. */
export function recordsOf(db: QueryContext, schema: SchemaView, held: readonly HeldItem[]): GraphItem[] {
  const records: GraphItem[] = [];
  for (const item of held) {
    const record = recordOf(db, schema, item);
    if (record !== null) records.push(record);
  }
  return records;
}
