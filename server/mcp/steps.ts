// The four graph steps an agent can take (out_step, in_step, out_e_step, in_e_step), shared by the
// step tools and by filter_traversals. A step is planned against the traversal's static types
// first (so a step that cannot fit the held items is a 400 whether or not any item is held), then
// run over items with the QueryContext's adjacency lookups. A step yields a set: each item once, by
// id, where first reached, within the call's item budget (item-budget.ts).
//
// Field layout: the source material disagrees on which of `edge_type` / `edge_label` holds the
// entity kind (`node` / `vec`) and which the edge's schema name, so both layouts are accepted:
// whichever field holds `node` or `vec` is the kind, the other is the edge name. The kind is
// optional; when given it must match the kind of the items the step arrives at.
import { StrandError } from "../../core/errors.js";
import type { EdgeItem, GraphItem, NodeItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import { heldItem, recordOf, type HeldItem } from "./held-items.js";
import type { CallBudget } from "./item-budget.js";
import { fieldPath, invalid, missing } from "./body.js";
import type { EdgeView, SchemaView, TypeKind } from "./schema-view.js";

export const STEP_TOOLS = ["out_step", "in_step", "out_e_step", "in_e_step"] as const;
export type StepTool = (typeof STEP_TOOLS)[number];

const KIND_WORDS: Readonly<Record<string, TypeKind>> = { node: "node", vec: "vector" };

export interface StepPlan {
  readonly tool: StepTool;
  readonly edge: EdgeView;
  /** Label of the held items the step applies to (others cannot have such edges: endpoints are typed). */
  readonly source: string;
  /** Label of every item the step yields. */
  readonly result: string;
  /** The items reached from `items`, duplicates included (filter_traversals asks one item at a time). */
  run(db: QueryContext, items: readonly GraphItem[]): GraphItem[];
  /**
   * The SET of items reached from `items`: each once (by id), in the order first reached, within
   * `budget` (RESULT_TOO_LARGE naming the step as soon as the set or the items visited pass it).
   */
  expand(db: QueryContext, items: readonly HeldItem[], budget: CallBudget): HeldItem[];
}

/** A step's fields as the input schemas check them (input-schemas.ts): each a non-empty string when given. */
export interface StepFields {
  edge_type?: string | null | undefined;
  edge_label?: string | null | undefined;
}

interface ReadFields {
  edgeName: string;
  nameField: string;
  kind: TypeKind | undefined;
  kindField: string | undefined;
}

/** Resolves the two accepted layouts of `{edge_type, edge_label}`. */
function readFields(data: StepFields, path: string): ReadFields {
  const type = data.edge_type ?? undefined;
  const label = data.edge_label ?? undefined;
  const typeIsKind = type !== undefined && Object.hasOwn(KIND_WORDS, type);
  const labelIsKind = label !== undefined && Object.hasOwn(KIND_WORDS, label);
  // The issue text's layout (edge_type = kind, edge_label = name) unless only edge_label is a kind word.
  if (labelIsKind && !typeIsKind) {
    if (type === undefined) throw missing(fieldPath(path, "edge_type"), "the edge type's name, since edge_label holds the kind");
    return { edgeName: type, nameField: fieldPath(path, "edge_type"), kind: KIND_WORDS[label!], kindField: fieldPath(path, "edge_label") };
  }
  if (label === undefined) {
    if (type === undefined || typeIsKind) throw missing(fieldPath(path, "edge_label"), "the edge type's name");
    return { edgeName: type, nameField: fieldPath(path, "edge_type"), kind: undefined, kindField: undefined };
  }
  if (type !== undefined && !typeIsKind) {
    throw invalid(fieldPath(path, "edge_type"), "'node' or 'vec' (the kind of the items the step arrives at)", type);
  }
  return {
    edgeName: label,
    nameField: fieldPath(path, "edge_label"),
    kind: type === undefined ? undefined : KIND_WORDS[type],
    kindField: type === undefined ? undefined : fieldPath(path, "edge_type"),
  };
}

/**
 * Plans `tool` with the step fields of `data` from items of the given types. Throws
 * INVALID_PARAMETER naming the field when the edge is unknown, cannot start from the held types,
 * or arrives at another kind than the one given.
 */
export function planStep(tool: StepTool, data: StepFields, path: string, types: readonly string[], schema: SchemaView): StepPlan {
  const fields = readFields(data, path);
  const edge = schema.edge(fields.edgeName, fields.nameField);
  if (types.length === 0) {
    throw new StrandError("INVALID_VALUE", `${tool} needs a traversal to start from: begin with n_from_type, e_from_type or a search`);
  }
  const heldEdges = types.every((t) => schema.get(t)?.kind === "edge");
  const out = tool === "out_step" || tool === "out_e_step";
  const toEdges = tool === "out_e_step" || tool === "in_e_step";
  const arrive = out ? edge.to : edge.from;
  let source: string;
  let result: string;
  if (heldEdges) {
    if (!toEdges) {
      throw new StrandError(
        "INVALID_VALUE",
        `${tool} starts from nodes or vectors, but the traversal holds ${types.join(", ")} edges; use out_e_step / in_e_step to reach their ends`,
      );
    }
    source = edge.name;
    result = arrive;
  } else {
    source = out ? edge.from : edge.to;
    result = toEdges ? edge.name : arrive;
  }
  if (!types.includes(source)) {
    const held = heldEdges ? `${types.join(", ")} edges` : types.join(", ");
    throw new StrandError(
      "INVALID_PARAMETER",
      `'${fields.nameField}': ${edge.name} goes from ${edge.from} to ${edge.to}, so ${tool} cannot start from the held ${held}`,
    );
  }
  if (fields.kind !== undefined) {
    const actual = schema.get(arrive)!.kind;
    if (actual !== fields.kind) {
      const word = actual === "vector" ? "vec" : "node";
      throw new StrandError(
        "INVALID_PARAMETER",
        `'${fields.kindField}': ${tool} over ${edge.name} arrives at ${arrive}, a ${actual} type, so the kind is '${word}'`,
      );
    }
  }
  const only = types.length === 1;
  const pick = <T extends GraphItem>(items: readonly GraphItem[]): T[] => (only ? items : items.filter((i) => i.label === source)) as T[];
  const run = (db: QueryContext, items: readonly GraphItem[]): GraphItem[] => {
    if (heldEdges) return out ? db.toN(pick<EdgeItem>(items)) : db.fromN(pick<EdgeItem>(items));
    const from = pick<NodeItem>(items);
    switch (tool) {
      case "out_step":
        return db.out(from, edge.name);
      case "in_step":
        return db.in(from, edge.name);
      case "out_e_step":
        return db.outE(from, edge.name);
      case "in_e_step":
        return db.inE(from, edge.name);
    }
  };
  // One source item at a time, so the budget stops a step at the first item over a limit.
  const expand = (db: QueryContext, items: readonly HeldItem[], budget: CallBudget): HeldItem[] => {
    const seen = new Set<string>();
    const reachedSet: HeldItem[] = [];
    for (const item of items) {
      if (item.label !== source) continue;
      const record = recordOf(db, schema, item);
      if (record === null) continue;
      const reached = run(db, [record]);
      budget.visit(reached.length, tool);
      for (const r of reached) {
        if (seen.has(r.id)) continue;
        seen.add(r.id);
        reachedSet.push(heldItem(r, schema));
      }
      budget.hold(reachedSet.length, tool);
    }
    return reachedSet;
  };
  return { tool, edge, source, result, run, expand };
}
