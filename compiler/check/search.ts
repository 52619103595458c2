// Retrieval: SearchV (nearest vectors), SearchBM25 (keyword ranking), and the rerankers that fuse
// (RerankRRF) or diversify (RerankMMR) ranked lists.
import type * as A from "../syntax/ast.js";
import { ANY_LABEL, type Ir, type ItemKind } from "../ir/ir.js";
import { STRING_VALUE, bad, describeStatic, items, value } from "./static-types.js";
import type { Checker } from "./context.js";
import { checkExpr } from "./recurse.js";
import { checkIntegerArg, checkNumber, checkValueFor, checkVectorArg } from "./demands.js";

/**
 * `SearchV<T>(vector | Embed(text), k)`: the k nearest vectors of type T, best first; with
 * `ef: n` (an integer >= 1) the HNSW search breadth of this query instead of the default.
 */
export function checkSearchV(cx: Checker, label: string, source: A.Source & { kind: "GenericCall" }): Ir {
  const positional = source.args.filter((a) => a.name === null);
  const firstNamed = source.args.findIndex((a) => a.name !== null);
  if (positional.length !== 2 || (firstNamed !== -1 && firstNamed < 2)) {
    cx.report(
      "E209",
      `SearchV takes a vector and k, then optionally ef: e.g. SearchV<${label}>(Embed(question), 10) or SearchV<${label}>(v, 10, ef: 200)`,
      source.span,
    );
    return bad();
  }
  let ef: Ir | null = null;
  for (const arg of source.args) {
    if (arg.name === null) continue;
    if (arg.name.name !== "ef") {
      cx.report("E209", `SearchV takes a vector, k and an optional ef (the search breadth), not '${arg.name.name}'`, arg.name.span);
      return bad();
    }
    if (ef !== null) {
      cx.report("E209", "ef is given twice", arg.name.span);
      return bad();
    }
    ef = checkIntegerArg(cx, arg.value, "ef", 1);
    if (ef.type.kind === "error") return bad();
  }
  const vector = checkVectorArg(cx, positional[0]!.value, "the query vector");
  const k = checkIntegerArg(cx, positional[1]!.value, "k");
  return { op: "searchVectors", label, vector, k, ef, type: items("vector", label, "many") };
}

/**
 * `trav::SearchV<T>(vector | Embed(text), k)`: the k vectors of T among those the traversal holds
 * most similar to the vector, best first with `score`. Exact (every candidate is scored), so the
 * HNSW breadth `ef` does not apply.
 */
export function checkSearchVStep(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::SearchV", ["vector"], true);
  if (t === null) return bad();
  if (step.typeArg === null) {
    const example = t.label === ANY_LABEL ? cx.exampleLabel("vector") : t.label;
    cx.report("E209", "::SearchV needs a vector type", step.span, `write ::SearchV<${example}>(vector, k)`);
    return bad();
  }
  const label = cx.resolveLabel(step.typeArg, "vector");
  if (label === null) return bad();
  if (t.label !== ANY_LABEL && t.label !== label) {
    cx.report(
      "E204",
      `the traversal holds ${t.label} vectors, so ::SearchV<${label}> would find none`,
      step.typeArg.span,
      `write ::SearchV<${t.label}>`,
    );
    return bad();
  }
  const named = step.args.find((a) => a.name !== null);
  if (named?.name != null) {
    const why = named.name.name === "ef" ? ": a SearchV step scores every vector of the traversal, so it has no search breadth" : "";
    cx.report("E209", `a SearchV step takes a vector and k, not '${named.name.name}'${why}`, named.name.span);
    return bad();
  }
  if (step.args.length !== 2) {
    cx.report("E209", `a SearchV step takes a vector and k, e.g. ::SearchV<${label}>(Embed(question), 10)`, step.span);
    return bad();
  }
  const vector = checkVectorArg(cx, step.args[0]!.value, "the query vector");
  const k = checkIntegerArg(cx, step.args[1]!.value, "k");
  if (vector.type.kind === "error" || k.type.kind === "error") return bad();
  return { op: "searchAmong", input, label, vector, k, type: items("vector", label, "many") };
}

/** `SearchBM25<T>(text, limit)`: up to `limit` items of type T ranked by BM25, best first. */
export function checkSearchBM25(cx: Checker, label: string, source: A.Source & { kind: "GenericCall" }): Ir {
  if (!cx.bm25) {
    cx.report(
      "E310",
      "SearchBM25 needs the keyword index, which this project disables",
      source.name.span,
      `set \`bm25 = true\` in ${cx.bm25Origin} (or remove the line: it is on by default)`,
    );
    return bad();
  }
  if (source.args.length !== 2) {
    cx.report("E209", `SearchBM25 takes a text and a limit, e.g. SearchBM25<${label}>(text, 10)`, source.span);
    return bad();
  }
  const text = checkValueFor(cx, source.args[0]!.value, STRING_VALUE, "the search text", true);
  const limit = checkIntegerArg(cx, source.args[1]!.value, "the limit");
  const kind = cx.schema.vectors.has(label) ? "vector" : "node";
  warnScoreField(cx, kind, label, "SearchBM25", "BM25 score", source.name.span);
  return { op: "searchBM25", label, text, limit, type: items(kind, label, "many") };
}

/**
 * Reciprocal rank fusion of ranked lists of one type: `a::RerankRRF(b, k: 60)` or
 * `RerankRRF(a, b, k: 60)`. With only the input list it keeps that ranking (scores become RRF).
 */
export function checkRerankRRF(cx: Checker, args: readonly A.Arg[], input: Ir | null, span: A.Span): Ir {
  const lists: Ir[] = input === null ? [] : [input];
  let k: Ir | null = null;
  for (const arg of args) {
    if (arg.name !== null) {
      if (arg.name.name !== "k") {
        cx.report("E209", `RerankRRF takes the lists to fuse and an optional k (default 60), not '${arg.name.name}'`, arg.name.span);
        return bad();
      }
      k = checkRrfK(cx, arg.value);
      if (k.type.kind === "error") return bad();
      continue;
    }
    lists.push(checkExpr(cx, arg.value));
  }
  if (lists.length === 0) {
    cx.report("E209", "RerankRRF needs at least one ranked list, e.g. RerankRRF(byVector, byKeyword)", span);
    return bad();
  }
  const first = lists[0]!.type;
  for (const l of lists) {
    if (l.type.kind === "error") return bad();
    if (l.type.kind !== "items" || l.type.item === "edge") {
      cx.report("E206", `RerankRRF fuses lists of nodes or vectors, but this is ${describeStatic(l.type)}`, span);
      return bad();
    }
    if (l.type.label === ANY_LABEL) {
      cx.reportUntyped(l.type, span, "RerankRRF");
      return bad();
    }
    if (first.kind === "items" && l.type.label !== first.label) {
      cx.report(
        "E204",
        `RerankRRF fuses lists of one type, but got ${first.label} and ${l.type.label}`,
        span,
        "search the same type with SearchV and SearchBM25",
      );
      return bad();
    }
  }
  if (first.kind !== "items") return bad();
  warnScoreField(cx, first.item, first.label, "RerankRRF", "fused score", span);
  return { op: "rerankRRF", inputs: lists, k, type: items(first.item, first.label, "many") };
}

/**
 * RerankRRF's k: a number > 0 (an F64 parameter or a literal such as 60.5, as in HelixDB); a
 * parameter that is not finite and > 0 at run time is INVALID_VALUE naming k (runtime/ops/rerank.ts).
 */
function checkRrfK(cx: Checker, expr: A.Expr): Ir {
  if (expr.kind === "Literal" && expr.literal.kind === "Number" && !(expr.literal.value > 0 && Number.isFinite(expr.literal.value))) {
    cx.report("E205", `k must be a number > 0, found ${expr.literal.raw}`, expr.span);
    return bad();
  }
  const ir = checkNumber(cx, expr, "k");
  if (ir.op === "param" && ir.optional) return cx.requiredHere(ir.name, expr.span, "k");
  return ir;
}

/**
 * W003: search results carry their relevance as `score`, but a type that declares a `score`
 * field keeps its stored value there (vector types cannot: E104), so the relevance is not seen.
 */
function warnScoreField(cx: Checker, item: ItemKind, label: string, call: string, what: string, span: A.Span): void {
  if (!cx.fieldsOf(item, label).some((f) => f.name === "score")) return;
  cx.warn(
    "W003",
    `${label} declares a field 'score', so ${call} results keep its stored value and do not carry their ${what} (they are still ranked by it)`,
    span,
    `rename the field to read the ${what} as 'score'`,
  );
}

const DISTANCES = ["cosine", "euclidean", "dotproduct"] as const;

/** `::RerankMMR(lambda: 0.7, distance: "cosine")`: maximal marginal relevance over vectors. */
export function checkRerankMMR(cx: Checker, input: Ir, step: A.Step & { kind: "Call" }): Ir {
  const t = cx.requireItems(input, step, "::RerankMMR", ["vector"]);
  if (t === null) return bad();
  let lambda: Ir = { op: "literal", value: 0.7, type: value({ kind: "scalar", name: "F64" }) };
  let distance: (typeof DISTANCES)[number] = "cosine";
  for (const [i, arg] of step.args.entries()) {
    const name = arg.name?.name ?? (i === 0 ? "lambda" : i === 1 ? "distance" : "");
    if (name === "lambda") {
      const v = arg.value;
      if (v.kind === "Literal" && v.literal.kind === "Number" && (v.literal.value < 0 || v.literal.value > 1)) {
        cx.report("E209", `lambda is between 0 and 1 (1 = relevance only, 0 = diversity only), found ${v.literal.raw}`, v.span);
        return bad();
      }
      lambda = checkNumber(cx, v, "lambda");
    } else if (name === "distance") {
      const v = arg.value;
      if (v.kind !== "Literal" || v.literal.kind !== "String" || !(DISTANCES as readonly string[]).includes(v.literal.value)) {
        cx.report("E209", `distance is one of "cosine", "euclidean", "dotproduct"`, v.span);
        return bad();
      }
      distance = v.literal.value as (typeof DISTANCES)[number];
    } else {
      cx.report("E209", "RerankMMR takes lambda (0..1) and distance", arg.span);
      return bad();
    }
  }
  return { op: "rerankMMR", input, lambda, distance, type: { ...t, card: "many" } };
}
