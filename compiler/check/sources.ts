// Where a traversal starts: a variable, `_`, a lookup (`N<T>`, `N<T>(id)`, `N<T>(a, b)`,
// `N<T>({field: v})`, `E<T>..`, `V<T>..`), or a generic call (AddN, AddE, AddV, Upsert*, SearchV,
// SearchBM25).
import type * as A from "../syntax/ast.js";
import { closest } from "../diagnostics/diagnostic.js";
import { helixTypeName } from "../../core/schema.js";
import { ANY_LABEL, type Ir, type ItemKind } from "../ir/ir.js";
import { bad, items, value } from "./static-types.js";
import type { Checker } from "./context.js";
import { checkIdent } from "./leaves.js";
import { checkIdExpr, checkValueFor, checkVectorArg } from "./demands.js";
import { checkSearchBM25, checkSearchV } from "./search.js";
import { checkPropsArg, edgeEnds, isEndList, upsert } from "./writes.js";

const SOURCES = ["AddN", "AddE", "AddV", "UpsertN", "UpsertE", "UpsertV", "SearchV", "SearchBM25"];

const ITEM_OF: Record<"N" | "E" | "V", ItemKind> = { N: "node", E: "edge", V: "vector" };

export function checkSource(cx: Checker, source: A.Source, steps: readonly A.Step[]): { ir: Ir; consumed: number } {
  switch (source.kind) {
    case "Var":
      return { ir: checkIdent(cx, source.name.name, source.name.span), consumed: 0 };
    case "Anonymous": {
      const type = cx.anon[cx.anon.length - 1];
      if (type === undefined) {
        cx.report(
          "E121",
          "'_' stands for the item a step works on (in ::WHERE, ::ORDER, ::UPDATE, projections, ...), and there is none here",
          source.span,
          "e.g. ::WHERE(_::{age}::GT(18)) or ::UPDATE({n: ADD(_::{n}, 1)})",
        );
        return { ir: bad(), consumed: 0 };
      }
      return { ir: { op: "anon", depth: cx.anon.length - 1, type }, consumed: 0 };
    }
    case "Lookup":
      return { ir: checkLookup(cx, source), consumed: 0 };
    case "GenericCall":
      return checkGenericSource(cx, source, steps);
  }
}

function checkLookup(cx: Checker, source: A.Source & { kind: "Lookup" }): Ir {
  // `E()` is Euler's number, not an untyped edge lookup.
  if (source.item === "E" && source.typeArg === null && source.hasParens && source.args.length === 0) {
    return { op: "math", fn: "E", args: [], type: value({ kind: "scalar", name: "F64" }) };
  }
  const item = ITEM_OF[source.item];
  if (source.typeArg === null) return checkUntypedLookup(cx, source, item);
  const label = cx.resolveLabel(source.typeArg, item);
  if (label === null) return bad();
  if (source.args.length === 0) return { op: "byLabel", item, label, type: items(item, label, "many") };
  const first = source.args[0]!.value;
  if (first.kind === "Object") {
    if (source.args.length > 1) {
      cx.report("E209", `a lookup by field takes exactly one object, e.g. ${source.item}<${label}>({email: email})`, source.args[1]!.span);
      return bad();
    }
    return checkIndexLookup(cx, item, label, first, source.item);
  }
  const ids = source.args.map((a) => checkIdExpr(cx, a.value, `${source.item}<${label}>`));
  if (ids.some((i) => i.type.kind === "error")) return bad();
  if (ids.length === 1) return { op: "byId", item, label, id: ids[0]!, type: items(item, label, "one") };
  return { op: "byIds", item, label, ids, type: items(item, label, "many") };
}

/**
 * `N`, `E`, `V`: every item of the kind; `N(id)`, `N(a, b)`: items of the kind by id, whatever
 * their type. Their type is items of ANY_LABEL (ir.ts): steps that need a type's fields are E217.
 */
function checkUntypedLookup(cx: Checker, source: A.Source & { kind: "Lookup" }, item: ItemKind): Ir {
  if (source.args.length === 0) return { op: "allOfKind", item, type: items(item, ANY_LABEL, "many") };
  const first = source.args[0]!.value;
  if (first.kind === "Object") {
    const entry = first.entries[0];
    const field = entry?.key.name ?? "field";
    cx.report(
      "E217",
      `a lookup by field needs a type: untyped ${source.item} holds ${item}s of every type, and only a type's fields are indexed`,
      first.span,
      `write ${source.item}<${indexedBy(cx, item, field) ?? cx.exampleLabel(item)}>({${field}: ..}) with the type that declares INDEX ${field}`,
    );
    return bad();
  }
  const ids = source.args.map((a) => checkIdExpr(cx, a.value, source.item));
  if (ids.some((i) => i.type.kind === "error")) return bad();
  if (ids.length === 1) return { op: "anyById", item, id: ids[0]!, type: items(item, ANY_LABEL, "one") };
  return { op: "anyByIds", item, ids, type: items(item, ANY_LABEL, "many") };
}

/** The first type of the kind that declares `field` with an index. */
function indexedBy(cx: Checker, item: ItemKind, field: string): string | undefined {
  const table = item === "node" ? cx.schema.nodes : item === "edge" ? cx.schema.edges : cx.schema.vectors;
  return [...table].find(([, t]) => t.fields.some((f) => f.name === field && f.index !== "none"))?.[0];
}

function checkIndexLookup(cx: Checker, item: ItemKind, label: string, arg: A.Expr & { kind: "Object" }, letter: string): Ir {
  if (arg.entries.length !== 1) {
    cx.report("E209", `a lookup by field takes exactly one field, e.g. ${letter}<${label}>({email: email})`, arg.span);
    return bad();
  }
  const entry = arg.entries[0]!;
  const field = cx.resolveField(item, label, entry.key, false);
  if (field === null) return bad();
  if (field.index === "none") {
    cx.report(
      "E111",
      `field '${field.name}' of ${label} is not indexed, so it cannot be looked up`,
      entry.key.span,
      `declare it as 'INDEX ${field.name}: ...' in ${letter}::${label}`,
    );
    return bad();
  }
  const value = checkValueFor(cx, entry.value, field.type, `the value of '${field.name}' to look up`, true);
  // A key lookup yields one item, the first match (lowest id), or none, on any INDEX, as in
  // HelixDB; every match is N<T>::WHERE(_::{field}::EQ(v)), which the index serves too.
  return { op: "byIndex", item, label, field: field.name, value, type: items(item, label, "optional") };
}

function checkGenericSource(
  cx: Checker,
  source: A.Source & { kind: "GenericCall" },
  steps: readonly A.Step[],
): { ir: Ir; consumed: number } {
  const name = source.name.name;
  const none = { ir: bad(), consumed: 0 };
  if (!SOURCES.includes(name)) {
    const guess = closest(name, SOURCES);
    cx.report("E902", `unknown source '${name}'`, source.name.span, guess !== undefined ? `did you mean '${guess}'?` : undefined);
    return none;
  }
  const kind: ItemKind =
    name === "AddE" || name === "UpsertE" ? "edge" : name === "AddN" || name === "UpsertN" || name === "SearchBM25" ? "node" : "vector";
  if (source.typeArg === null) {
    const word = kind === "edge" ? "EdgeType" : kind === "vector" ? "VectorType" : "NodeType";
    cx.report("E209", `${name} needs a type argument`, source.span, `write ${name}<${word}>`);
    return none;
  }
  // SearchBM25 ranks nodes, or vectors by their String fields.
  const label =
    name === "SearchBM25" && cx.schema.vectors.has(source.typeArg.name)
      ? source.typeArg.name
      : cx.resolveLabel(source.typeArg, kind, kind === "vector" ? propertyFields(cx, source.args[1]?.value) : undefined);
  if (label === null) return none;
  switch (name) {
    case "AddN":
      cx.writes = true;
      return {
        ir: { op: "addNode", label, props: checkPropsArg(cx, source.args, "node", label), type: items("node", label, "one") },
        consumed: 0,
      };
    case "AddE": {
      cx.writes = true;
      const props = checkPropsArg(cx, source.args, "edge", label);
      const ends = edgeEnds(cx, label, steps, source, "AddE");
      if (ends === null) return none;
      return {
        ir: {
          op: "addEdge",
          label,
          props,
          from: ends.from,
          to: ends.to,
          type: items("edge", label, isEndList(ends.from) || isEndList(ends.to) ? "many" : "one"),
        },
        consumed: ends.consumed,
      };
    }
    case "AddV": {
      cx.writes = true;
      if (source.args.length < 1 || source.args.length > 2) {
        cx.report(
          "E209",
          `AddV takes a vector and an optional object of properties, e.g. AddV<${label}>(vector, {text: text})`,
          source.span,
        );
        return none;
      }
      const vector = checkVectorArg(cx, source.args[0]!.value, "the vector");
      const props = checkPropsArg(cx, source.args.slice(1), "vector", label);
      return { ir: { op: "addVector", label, vector, props, type: items("vector", label, "one") }, consumed: 0 };
    }
    case "UpsertN":
    case "UpsertE":
    case "UpsertV": {
      // Without an input traversal there is nothing to update: the upsert creates.
      const empty: Ir = { op: "arrayLit", elements: [], type: items(kind, label, "many") };
      const r = upsert(cx, name, empty, label, source.args, source, steps);
      return { ir: r.ir, consumed: r.extra };
    }
    case "SearchV":
      return { ir: checkSearchV(cx, label, source), consumed: 0 };
    default:
      return { ir: checkSearchBM25(cx, label, source), consumed: 0 };
  }
}

/**
 * AddV's properties as the fields of a declaration (`text: String, page: I64`), for the hint of
 * an undeclared vector type; undefined when they are not an object literal.
 */
function propertyFields(cx: Checker, props: A.Expr | undefined): string | undefined {
  if (props?.kind !== "Object" || props.entries.length === 0) return undefined;
  const typeOf = (v: A.Expr): string => {
    if (v.kind === "Literal" && v.literal.kind === "Number") return v.literal.isFloat ? "F64" : "I64";
    if (v.kind === "Literal" && v.literal.kind === "Boolean") return "Boolean";
    const binding = v.kind === "Ident" ? cx.lookup(v.name) : undefined;
    if (binding?.kind === "param") return helixTypeName(binding.type);
    return "String";
  };
  return props.entries.map((e) => `${e.key.name}: ${typeOf(e.value)}`).join(", ");
}
