// What a query reads, as `POST /query` with "explain": true answers it: each data access of its
// checked IR in evaluation order (inputs before what works on them), and how the store serves it
// (a scan of a type, an index, the vector or keyword index, adjacency lists), and with the store's
// counts the rows each step is estimated to yield (plan-rows.ts). Pure.
import type { Ir, QueryIr } from "./ir/ir.js";
import type { RowEstimator } from "./plan-rows.js";

export interface PlanStep {
  /** the variable the statement binds, or null (a DROP, a FOR body's write, the RETURN) */
  in: string | null;
  /** what the step does, e.g. "N<User> WHERE", "Out<Follows>", "SearchV<Doc>" */
  step: string;
  /** how the store serves it */
  access: "scan" | "index" | "unique index" | "id" | "vector index" | "keyword index" | "adjacency" | "write" | "in memory";
  /** the indexed fields and comparisons an index serves (index access only) */
  using?: string[];
  /** the rows the step is estimated to yield (per item inside a WHERE or a FOR); absent without counts */
  rows?: number;
}

const KIND: Record<string, string> = { node: "N", edge: "E", vector: "V" };

export function explainQuery(query: QueryIr, estimator?: RowEstimator): PlanStep[] {
  const steps: PlanStep[] = [];
  const withRows = (step: PlanStep, ir: Ir): PlanStep => {
    const rows = estimator?.rows(ir) ?? null;
    return rows === null ? step : { ...step, rows };
  };
  const visit = (ir: Ir, at: string | null): void => {
    // `T::WHERE(..)` an index serves reads the index, not the type: one step.
    if (
      ir.op === "filter" &&
      ir.index !== undefined &&
      ir.index.length > 0 &&
      (ir.input.op === "byLabel" || ir.input.op === "searchVectors")
    ) {
      for (const child of children(ir.input)) visit(child, at);
      const source = stepOf(ir.input)!;
      steps.push(
        withRows(
          {
            in: at,
            step: `${source.step} WHERE`,
            access: ir.input.op === "byLabel" ? "index" : "vector index",
            using: ir.index.map((c) => `${c.field} ${c.op}`),
          },
          ir,
        ),
      );
      visit(ir.predicate.body, at);
      return;
    }
    for (const child of children(ir)) visit(child, at);
    const step = stepOf(ir);
    if (step !== null) steps.push(withRows({ in: at, ...step }, ir));
  };
  const statements = (list: QueryIr["statements"]): void => {
    for (const s of list) {
      if (s.kind === "let") {
        visit(s.value, s.name);
        estimator?.let(s.name, s.value);
      } else if (s.kind === "eval") visit(s.value, null);
      else if (s.kind === "drop") visit(s.target, null);
      else {
        visit(s.iterable, null);
        estimator?.loop(s.names);
        statements(s.body);
      }
    }
  };
  statements(query.statements);
  if (query.returns !== null) {
    if (query.returns.kind === "value") visit(query.returns.value, null);
    else for (const m of query.returns.members) visit(m.value, null);
  }
  return steps;
}

function stepOf(ir: Ir): Omit<PlanStep, "in"> | null {
  switch (ir.op) {
    case "byLabel":
      return { step: `${KIND[ir.item]}<${ir.label}>`, access: "scan" };
    case "byId":
    case "byIds":
      return { step: `${KIND[ir.item]}<${ir.label}>(id)`, access: "id" };
    case "anyById":
    case "anyByIds":
      return { step: `${KIND[ir.item]}(id)`, access: "id" };
    case "byIndex":
      return { step: `${KIND[ir.item]}<${ir.label}>({${ir.field}})`, access: "index", using: [ir.field] };
    case "allOfKind":
      return { step: `${KIND[ir.item]}`, access: "scan" };
    case "filter": {
      if (ir.index === undefined || ir.index.length === 0) return { step: "WHERE", access: "in memory" };
      return { step: "WHERE", access: "index", using: ir.index.map((c) => `${c.field} ${c.op}`) };
    }
    case "searchVectors":
    case "searchAmong":
      return { step: `SearchV<${ir.label}>`, access: "vector index" };
    case "searchBM25":
      return { step: `SearchBM25<${ir.label}>`, access: "keyword index" };
    case "adjacent":
      return {
        step: `${ir.direction === "out" ? "Out" : ir.direction === "in" ? "In" : ir.direction === "outE" ? "OutE" : "InE"}<${ir.label}>`,
        access: "adjacency",
      };
    case "shortestPath":
      return { step: "ShortestPath", access: "adjacency" };
    case "addNode":
    case "addEdge":
    case "addVector":
    case "update":
    case "upsertNode":
    case "upsertEdge":
    case "upsertVector":
      return { step: ir.op, access: "write" };
    default:
      return null;
  }
}

/** The IR an op reads from, in evaluation order (lambdas' bodies included: they run per item). */
function children(ir: Ir): Ir[] {
  const out: Ir[] = [];
  for (const value of Object.values(ir as unknown as Record<string, unknown>)) collect(value, out);
  return out;
}

function collect(value: unknown, out: Ir[]): void {
  if (Array.isArray(value)) for (const v of value) collect(v, out);
  else if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    if (typeof o.op === "string" && "type" in o) out.push(o as unknown as Ir);
    else if ("body" in o && typeof o.depth === "number") collect(o.body, out);
    else if ("value" in o && typeof o.name === "string") collect(o.value, out);
  }
}
