// A connection's traversal: the items the last step produced (as ids and labels: held-items.ts), the type names they are
// statically known to have (so a step or filter can be checked even when no item is held), and the
// `next` cursor. Immutable: a tool computes a new Traversal and the connection adopts it only when
// the whole call succeeded, so a failing call never leaves a half-applied state.
import type { HeldItem } from "./held-items.js";

export interface Traversal {
  /** True before any source (n_from_type, e_from_type, a search) and after reset/collect-with-drop. */
  readonly blank: boolean;
  readonly items: readonly HeldItem[];
  /**
   * The labels the items can have: exactly the labels of the held items when any are held (so a
   * filter that removed every Beta leaves Alpha alone); when none are, the labels the source or
   * step could have produced (one, except after a search over every vector type).
   */
  readonly types: readonly string[];
  /** Index of the item `next` returns. */
  readonly cursor: number;
}

export const BLANK: Traversal = Object.freeze({ blank: true, items: Object.freeze([]), types: Object.freeze([]), cursor: 0 });

/** A traversal holding `items`, which the schema says have one of `types` (narrowed to the labels held). */
export function loaded(items: readonly HeldItem[], types: readonly string[]): Traversal {
  return { blank: false, items, types: heldTypes(items, types), cursor: 0 };
}

function heldTypes(items: readonly HeldItem[], types: readonly string[]): readonly string[] {
  if (items.length === 0 || types.length <= 1) return types;
  const labels = new Set<string>();
  for (const item of items) {
    labels.add(item.label);
    if (labels.size === types.length) return types;
  }
  return types.filter((t) => labels.has(t));
}

/** The item at the cursor (null at the end) and the traversal with the cursor moved past it. */
export function advance(t: Traversal): { item: HeldItem | null; next: Traversal } {
  if (t.cursor >= t.items.length) return { item: null, next: t };
  return { item: t.items[t.cursor]!, next: { ...t, cursor: t.cursor + 1 } };
}
