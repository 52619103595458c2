// The filter layer of filter_items (and of nested filter_traversals):
//
//   { properties?:        [[{key, operator, value}, ...], ...],   OR over AND-groups
//     filter_traversals?: [{tool_name, args: {<step fields>, filter?: <layer>}, filters?: <layer>}] }
//
// An item passes when some AND-group holds entirely (no groups: no property constraint) and every
// filter traversal, run from that one item and narrowed by its nested layer, yields an item.
// filter_traversals nest at most MAX_FILTER_DEPTH levels (a deeper one is a 400 naming it), so
// compiling and running a filter never recurses without bound.
// The whole layer is checked and compiled against the traversal's static types before any item is
// looked at, so a bad key, operator or value is a 400 even over an empty traversal.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import type { GraphItem } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import { fieldPath, invalid, member, missing, objectAt, requiredMember, type JsonObject } from "./body.js";
import type { SchemaView } from "./schema-view.js";
import type { CallBudget } from "./item-budget.js";
import { isStepTool, planStep, STEP_TOOLS } from "./steps.js";
import { compileCondition, isOperator, OPERATORS } from "./typed-compare.js";

/** `budget` counts the items filter traversals reach (mcp_max_request_items), when given. */
export type ItemPredicate = (db: QueryContext, item: GraphItem, budget?: CallBudget) => boolean;

const LAYER_MEMBERS = ["properties", "filter_traversals"] as const;
const CONDITION_MEMBERS = ["key", "operator", "value"] as const;
const TRAVERSAL_MEMBERS = ["tool_name", "args", "filters"] as const;
const ARGS_MEMBERS = ["edge_type", "edge_label", "filter"] as const;

/** How many filter_traversals may enclose one another (the top layer's own are level 1). */
export const MAX_FILTER_DEPTH = 32;

const hasOwn = Object.prototype.hasOwnProperty;
const PASS: ItemPredicate = () => true;
const NEVER = (): boolean => false;

/**
 * Compiles the layer at `path` for items whose label is one of `types`. `depth` is the number of
 * filter traversals the layer is nested in (0 for the layer of filter_items itself).
 */
export function compileFilter(raw: unknown, path: string, types: readonly string[], schema: SchemaView, depth = 0): ItemPredicate {
  const layer = objectAt(raw, path, LAYER_MEMBERS);
  const groups = compileGroups(member(layer, "properties"), fieldPath(path, "properties"), types, schema);
  const traversals = compileTraversals(member(layer, "filter_traversals"), fieldPath(path, "filter_traversals"), types, schema, depth);
  if (groups === null && traversals.length === 0) return PASS;
  return (db, item, budget) => (groups === null || groups(item)) && traversals.every((t) => t(db, item, budget));
}

type Test = (item: GraphItem) => boolean;

function compileGroups(raw: unknown, path: string, types: readonly string[], schema: SchemaView): Test | null {
  if (raw === undefined) return null;
  if (!Array.isArray(raw)) throw invalid(path, "an array of AND-groups: [[{key, operator, value}, ...], ...]", raw);
  if (raw.length === 0) return null;
  const groups = raw.map((group, g) => {
    const groupPath = fieldPath(path, g);
    if (!Array.isArray(group)) throw invalid(groupPath, "an array of conditions {key, operator, value} (one AND-group)", group);
    const tests = group.map((condition, c) => compileConditionAt(condition, fieldPath(groupPath, c), types, schema));
    return (item: GraphItem) => tests.every((t) => t(item));
  });
  return (item) => groups.some((g) => g(item));
}

function compileConditionAt(raw: unknown, path: string, types: readonly string[], schema: SchemaView): Test {
  const condition = objectAt(raw, path, CONDITION_MEMBERS);
  const keyPath = fieldPath(path, "key");
  const key = requiredMember(condition, "key", path, "a property name");
  if (typeof key !== "string" || key === "") throw invalid(keyPath, "a property name", key);
  const opPath = fieldPath(path, "operator");
  const op = requiredMember(condition, "operator", path, `one of ${OPERATORS.join(" ")}`);
  if (!isOperator(op)) throw invalid(opPath, `one of ${OPERATORS.join(" ")}`, op);
  const valuePath = fieldPath(path, "value");
  const value = requiredMember(condition, "value", path, "a string or an array of strings");

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

function compileTraversals(raw: unknown, path: string, types: readonly string[], schema: SchemaView, depth: number): ItemPredicate[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid(path, "an array of {tool_name, args}", raw);
  if (raw.length > 0 && depth >= MAX_FILTER_DEPTH) {
    throw new StrandError("INVALID_PARAMETER", `'${path}': filter_traversals nest at most ${MAX_FILTER_DEPTH} levels deep`);
  }
  return raw.map((entry, i) => compileTraversal(entry, fieldPath(path, i), types, schema, depth + 1));
}

/** One filter traversal at nesting level `depth` (1 for those of the top layer). */
function compileTraversal(raw: unknown, path: string, types: readonly string[], schema: SchemaView, depth: number): ItemPredicate {
  const entry = objectAt(raw, path, TRAVERSAL_MEMBERS);
  const toolPath = fieldPath(path, "tool_name");
  const tool = requiredMember(entry, "tool_name", path, STEP_TOOLS.join(" | "));
  if (typeof tool !== "string" || !isStepTool(tool)) throw invalid(toolPath, `one of ${STEP_TOOLS.join(", ")}`, tool);
  const argsPath = fieldPath(path, "args");
  const argsRaw = member(entry, "args");
  if (argsRaw === undefined) throw missing(argsPath, "the step's fields: {edge_type, edge_label, filter?}");
  const args: JsonObject = objectAt(argsRaw, argsPath, ARGS_MEMBERS);
  const plan = planStep(tool, args, argsPath, types, schema);

  // The nested layer may sit in args.filter or beside args as `filters`; not both.
  const inArgs = member(args, "filter");
  const beside = member(entry, "filters");
  if (inArgs !== undefined && beside !== undefined) {
    throw new StrandError("INVALID_PARAMETER", `'${path}': give the nested filter once, as args.filter or as filters, not both`);
  }
  const nested =
    inArgs !== undefined
      ? compileFilter(inArgs, fieldPath(argsPath, "filter"), [plan.result], schema, depth)
      : beside !== undefined
        ? compileFilter(beside, fieldPath(path, "filters"), [plan.result], schema, depth)
        : PASS;
  return (db, item, budget) => {
    if (item.label !== plan.source) return false;
    const reached = plan.run(db, [item]);
    budget?.visit(reached.length, "filter_items");
    return reached.some((r) => nested(db, r, budget));
  };
}
