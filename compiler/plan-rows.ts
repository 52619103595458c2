// The rows each step of a plan is estimated to yield, for `POST /query`'s "explain": from the
// store's record counts (the caller passes them in: this stays pure) and the request's parameters.
// There are no value statistics, so a condition's selectivity is System R's default: an equality
// keeps 1/10 of its input, a range or any other condition 1/3. A hop yields its input times the
// edge type's mean degree at that end. Per-item work inside a lambda is estimated per item.
import type { Ir } from "./ir/ir.js";

export interface PlanStats {
  /** Records of each type (nodes, edges and vectors by type name). */
  records: Readonly<Record<string, number>>;
  /** Each edge type's ends. */
  edgeEnds: Readonly<Record<string, { from: string; to: string }>>;
}

const EQUALITY = 1 / 10;
const OTHER_CONDITION = 1 / 3;

export class RowEstimator {
  private readonly vars = new Map<string, number>();

  constructor(
    private readonly stats: PlanStats,
    private readonly params: Readonly<Record<string, unknown>>,
  ) {}

  /** Binds a statement's variable to what its value holds (explain walks statements in order). */
  let(name: string, value: Ir): void {
    this.vars.set(name, this.rows(value) ?? 1);
  }

  /** A FOR's names hold one item per iteration; the body's steps are estimated per iteration. */
  loop(names: readonly string[]): void {
    for (const name of names) this.vars.set(name, 1);
  }

  /** The rows `ir` yields; null when nothing sensible can be said (a path search). */
  rows(ir: Ir): number | null {
    const n = this.estimate(ir);
    // As most planners do, an estimate is at least one row unless the input is empty.
    return n === null ? null : n > 0 ? Math.max(1, Math.round(n)) : 0;
  }

  private count(label: string): number {
    return this.stats.records[label] ?? 0;
  }

  private estimate(ir: Ir): number | null {
    const input = (x: Ir): number => this.estimate(x) ?? 1;
    switch (ir.op) {
      case "byId":
      case "anyById":
      case "addNode":
      case "addEdge":
      case "addVector":
      case "upsertNode":
      case "upsertEdge":
      case "upsertVector":
      case "count":
      case "first":
      case "aggregate":
        return 1;
      case "byIds":
      case "anyByIds":
        return ir.ids.length;
      case "byLabel":
        return this.count(ir.label);
      case "allOfKind":
        return Object.values(this.stats.records).reduce((a, b) => a + b, 0);
      case "byIndex":
        return this.count(ir.label) * EQUALITY;
      case "filter": {
        const conditions =
          ir.index !== undefined && ir.index.length > 0
            ? ir.index.map((c) => (c.op === "EQ" ? EQUALITY : OTHER_CONDITION))
            : [OTHER_CONDITION];
        return conditions.reduce((rows, keep) => rows * keep, input(ir.input));
      }
      case "intersect":
        return input(ir.input) * OTHER_CONDITION;
      case "adjacent": {
        const ends = this.stats.edgeEnds[ir.label];
        if (ends === undefined) return null;
        const at = ir.direction === "out" || ir.direction === "outE" ? ends.from : ends.to;
        const nodes = this.count(at);
        return nodes === 0 ? 0 : (input(ir.input) * this.count(ir.label)) / nodes;
      }
      case "searchVectors":
        return Math.min(this.value(ir.k) ?? this.count(ir.label), this.count(ir.label));
      case "searchAmong":
        return Math.min(this.value(ir.k) ?? input(ir.input), input(ir.input));
      case "searchBM25":
        return Math.min(this.value(ir.limit) ?? this.count(ir.label), this.count(ir.label));
      case "range": {
        const start = this.value(ir.start) ?? 0;
        const end = this.value(ir.end);
        const rows = input(ir.input);
        return end === null ? rows : Math.max(0, Math.min(rows, end) - start);
      }
      case "rerankRRF":
        return Math.max(0, ...ir.inputs.map(input));
      case "var":
        return this.vars.get(ir.name) ?? 1;
      case "shortestPath":
        return null;
      case "endpoint":
      case "order":
      case "dedup":
      case "groupBy":
      case "aggregateBy":
      case "rerankMMR":
      case "update":
      case "project":
      case "prop":
      case "pluck":
      case "member":
      case "idOf":
        return input(ir.input);
      default:
        return 1;
    }
  }

  /** A whole number given as a literal or a parameter, else null. */
  private value(ir: Ir): number | null {
    const v = ir.op === "literal" ? ir.value : ir.op === "param" ? this.params[ir.name] : undefined;
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  }
}
