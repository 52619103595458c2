// The filter layer of filter_items (and of nested filter_traversals):
//
//   { properties?:        [[{key, operator, value}, ...], ...],   OR over AND-groups
//     filter_traversals?: [{tool_name, args: {<step fields>, filter?: <layer>}, filters?: <layer>}] }
//
// An item passes when some AND-group holds entirely (no groups: no property constraint) and every
// filter traversal, run from that one item and narrowed by its nested layer, yields an item.
// filter_traversals nest at most MAX_FILTER_DEPTH levels (a deeper one is a 400 naming it), so
// checking, compiling and running a filter never recurses without bound.
// The layer's shape is checked by its input schema (input-schemas.ts); here it is compiled against
// the traversal's static types before any item is looked at, so a key the held types lack or a
// value their property cannot take is a 400 even over an empty traversal.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { GraphItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import { fieldPath, isObject } from "./body.js";
import type { FilterCondition, FilterLayer, TraversalFilter } from "./input-schemas.js";
import type { SchemaView } from "./schema-view.js";
import type { CallBudget } from "./item-budget.js";
import { planStep } from "./steps.js";
import { compileCondition } from "./typed-compare.js";

/** `budget` counts the items filter traversals reach (mcp_max_request_items), when given. */
export type ItemPredicate = (db: QueryContext, item: GraphItem, budget?: CallBudget) => boolean;

/** How many filter_traversals may enclose one another (the top layer's own are level 1). */
export const MAX_FILTER_DEPTH = 32;

const hasOwn = Object.prototype.hasOwnProperty;
const PASS: ItemPredicate = () => true;
const NEVER = (): boolean => false;

/**
 * Refuses the first layer, depth first, whose filter_traversals nest past MAX_FILTER_DEPTH, in the
 * raw body of filter_items. It runs before the schema reads the filter: the schema recurses, and
 * over the MCP protocol a body may nest without limit. It walks without recursing for the same reason.
 */
export function boundFilterDepth(body: unknown): void {
  const data = isObject(body) ? body.data : undefined;
  const stack: Array<{ layer: unknown; path: string; depth: number }> = [];
  if (isObject(data)) stack.push({ layer: data.filter, path: "data.filter", depth: 0 });
  while (stack.length > 0) {
    const { layer, path, depth } = stack.pop()!;
    const list = isObject(layer) && Object.hasOwn(layer, "filter_traversals") ? layer.filter_traversals : undefined;
    if (!Array.isArray(list) || list.length === 0) continue;
    const listPath = fieldPath(path, "filter_traversals");
    if (depth >= MAX_FILTER_DEPTH) {
      throw new StrandError("INVALID_PARAMETER", `'${listPath}': filter_traversals nest at most ${MAX_FILTER_DEPTH} levels deep`);
    }
    for (let i = list.length - 1; i >= 0; i--) {
      const entry: unknown = list[i];
      if (!isObject(entry)) continue;
      const entryPath = fieldPath(listPath, i);
      if (Object.hasOwn(entry, "filters")) stack.push({ layer: entry.filters, path: fieldPath(entryPath, "filters"), depth: depth + 1 });
      const args = Object.hasOwn(entry, "args") ? entry.args : undefined;
      if (isObject(args) && Object.hasOwn(args, "filter")) {
        stack.push({ layer: args.filter, path: fieldPath(fieldPath(entryPath, "args"), "filter"), depth: depth + 1 });
      }
    }
  }
}

/** Compiles the layer at `path` for items whose label is one of `types`. */
export function compileFilter(layer: FilterLayer, path: string, types: readonly string[], schema: SchemaView): ItemPredicate {
  const groups = compileGroups(layer.properties ?? [], fieldPath(path, "properties"), types, schema);
  const traversals = (layer.filter_traversals ?? []).map((entry, i) =>
    compileTraversal(entry, fieldPath(fieldPath(path, "filter_traversals"), i), types, schema),
  );
  if (groups === null && traversals.length === 0) return PASS;
  return (db, item, budget) => (groups === null || groups(item)) && traversals.every((t) => t(db, item, budget));
}

type Test = (item: GraphItem) => boolean;

function compileGroups(groupsIn: FilterCondition[][], path: string, types: readonly string[], schema: SchemaView): Test | null {
  if (groupsIn.length === 0) return null;
  const groups = groupsIn.map((group, g) => {
    const tests = group.map((condition, c) => compileConditionAt(condition, fieldPath(fieldPath(path, g), c), types, schema));
    return (item: GraphItem) => tests.every((t) => t(item));
  });
  return (item) => groups.some((g) => g(item));
}

function compileConditionAt(condition: FilterCondition, path: string, types: readonly string[], schema: SchemaView): Test {
  const { key, operator: op, value } = condition;
  const keyPath = fieldPath(path, "key");
  const valuePath = fieldPath(path, "value");

  // One compiled test per held type that declares the key, against that type's declared type;
  // items of other types lack the key. A value that cannot be read as one type's property (or
  // a property filters cannot compare) makes the condition false for that type's items; only
  // when no type that declares the key can take the condition is it a 400 (the first type's).
  const byLabel = new Map<string, (v: GraphItem[string] | undefined) => boolean>();
  let firstFailure: StrandError | undefined;
  for (const label of types) {
    const type = schema.get(label)?.properties.get(key);
    if (type === undefined) continue;
    try {
      byLabel.set(label, compileCondition(type, op, value, keyPath, valuePath, `${label}.${key}`));
    } catch (error) {
      if (!(error instanceof StrandError)) throw error;
      firstFailure ??= error;
      byLabel.set(label, NEVER);
    }
  }
  if (byLabel.size === 0) throw unknownProperty(keyPath, key, types, schema);
  if (firstFailure !== undefined && [...byLabel.values()].every((test) => test === NEVER)) throw firstFailure;
  const absent = op === "!=";
  return (item) => {
    const test = byLabel.get(item.label);
    if (test === undefined) return absent;
    return test(hasOwn.call(item, key) ? item[key] : undefined);
  };
}

export function unknownProperty(path: string, key: string, types: readonly string[], schema: SchemaView): StrandError {
  const known = new Set<string>();
  for (const t of types) for (const p of schema.get(t)?.properties.keys() ?? []) known.add(p);
  return new StrandError(
    "INVALID_PARAMETER",
    `'${path}': ${types.join(", ")} has no property '${echo(key)}' (properties: ${[...known].join(", ")})`,
  );
}

/** One filter traversal: its step from each item, narrowed by its nested layer. */
function compileTraversal(entry: TraversalFilter, path: string, types: readonly string[], schema: SchemaView): ItemPredicate {
  const argsPath = fieldPath(path, "args");
  const plan = planStep(entry.tool_name, entry.args, argsPath, types, schema);

  // The nested layer may sit in args.filter or beside args as `filters`; not both.
  const inArgs = entry.args.filter ?? undefined;
  const beside = entry.filters ?? undefined;
  if (inArgs !== undefined && beside !== undefined) {
    throw new StrandError("INVALID_PARAMETER", `'${path}': give the nested filter once, as args.filter or as filters, not both`);
  }
  const nested =
    inArgs !== undefined
      ? compileFilter(inArgs, fieldPath(argsPath, "filter"), [plan.result], schema)
      : beside !== undefined
        ? compileFilter(beside, fieldPath(path, "filters"), [plan.result], schema)
        : PASS;
  return (db, item, budget) => {
    if (item.label !== plan.source) return false;
    const reached = plan.run(db, [item]);
    budget?.visit(reached.length, "filter_items");
    return reached.some((r) => nested(db, r, budget));
  };
}
