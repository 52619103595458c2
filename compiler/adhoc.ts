// The compiler's entry point for ad-hoc queries (`POST /query`): the text of one query, checked
// against a served project's schema with the same diagnostics as `strand check`, and its
// JavaScript (emit/query-script.ts). The text is a whole `QUERY Name(params) => … RETURN …`, a
// body (statements and a RETURN), or one expression (answered as `result`); a body's and an
// expression's parameters are the keys of the request's `params`, each typed where it is first
// used (check/infer-params.ts). Pure and total; loads no TypeScript.
import { compareStrings } from "../core/text-order.js";
import type { QueryDef } from "./syntax/ast.js";
import { QueryInternalError, error, hasErrors, type Diagnostic } from "./diagnostics/diagnostic.js";
import type { Position, Span } from "./diagnostics/span.js";
import { checkNesting } from "./syntax/nesting.js";
import { parseSource } from "./syntax/parser.js";
import { checkQueries } from "./check/queries.js";
import type { KindLabels } from "./emit/expressions.js";
import { queryScript } from "./emit/query-script.js";
import type { GeneratedFile } from "./emit/structures.js";
import type { QueryIr } from "./ir/ir.js";
import type { CheckedSchema } from "./schema/schema-check.js";
import { checkedSchemaOf, type SourceText, sortDiagnostics } from "./pipeline.js";
import { explainQuery, type PlanStep } from "./explain.js";
import { type PlanStats, RowEstimator } from "./plan-rows.js";

export type { PlanStep } from "./explain.js";

/** The served project's schema, checked once, and what every ad-hoc compile needs of it. */
export interface AdHocSchema {
  schema: CheckedSchema;
  labels: KindLabels;
  bm25: boolean;
}

export function prepareAdHoc(
  sources: readonly SourceText[],
  options: { bm25?: boolean } = {},
): AdHocSchema | { diagnostics: Diagnostic[] } {
  const { schema, diagnostics } = checkedSchemaOf(sources);
  if (schema === null) return { diagnostics };
  const d = schema.descriptor;
  const sorted = (types: readonly { name: string }[]): string[] => types.map((t) => t.name).sort(compareStrings);
  return { schema, labels: { node: sorted(d.nodes), edge: sorted(d.edges), vector: sorted(d.vectors) }, bm25: options.bm25 ?? true };
}

export interface AdHocResult {
  /** Errors and warnings, positions in the text as sent. */
  diagnostics: Diagnostic[];
  query: QueryIr | null;
  script: GeneratedFile | null;
  /** What the query reads and how (explain.ts); empty when it does not compile. */
  plan: PlanStep[];
  /** The plan with each step's estimated rows, from the store's counts and the request's parameters. */
  explain: (stats: PlanStats, params: Readonly<Record<string, unknown>>) => PlanStep[];
}

/** The file name diagnostics of an ad-hoc query carry. */
export const ADHOC_FILE = "query";
/** Text parsed as a file: a QUERY (with its attributes), or what only a file holds (types, MIGRATION: E315). */
const WHOLE = /^\s*((#\[[^\]]*\]\s*)*QUERY\b|[NEV]::|schema::|MIGRATION\b)/;
/** The header a body is compiled under (one line, so its diagnostics move up by one). */
const BODY_HEADER = "QUERY query() =>\n";
/** A bare expression (no RETURN) is the value of `result`: `N<User>::RANGE(0, 10)` answers {"result": [..]}. */
const EXPRESSION_PREFIX = "result <- ";
const HAS_RETURN = /\bRETURN\b/;

export function compileAdHoc(prepared: AdHocSchema, text: string, params: Readonly<Record<string, unknown>>): AdHocResult {
  const whole = WHOLE.test(text);
  const expression = !whole && !HAS_RETURN.test(text);
  const trimmed = text.trim();
  const body = expression ? `${EXPRESSION_PREFIX}${trimmed}\nRETURN result` : text;
  const lines = trimmed.split("\n");
  const end = expression ? { line: lines.length, column: lines[lines.length - 1]!.length + 1 } : null;
  const at = (d: Diagnostic): Diagnostic => (whole ? d : moveUp(d, expression ? EXPRESSION_PREFIX.length : 0, end));
  // An expression's RETURN is ours: "no RETURN" means the text swallowed it (a trailing `::`), which another error names.
  const shown = (all: Diagnostic[]): Diagnostic[] => (expression ? all.filter((d) => d.code !== "W001") : all);
  const diagnostics: Diagnostic[] = [];
  const fail = (): AdHocResult => {
    sortDiagnostics(diagnostics);
    return { diagnostics: shown(diagnostics).map(at), query: null, script: null, plan: [], explain: () => [] };
  };
  const parsed = parseSource(whole ? text : BODY_HEADER + body, ADHOC_FILE);
  diagnostics.push(...parsed.diagnostics);
  if (parsed.ast === null || hasErrors(diagnostics)) return fail();
  if (checkNesting(parsed.ast.items, diagnostics) > 0) return fail();
  const queries = parsed.ast.items.filter((item): item is QueryDef => item.kind === "Query");
  if (queries.length !== 1 || parsed.ast.items.length !== 1) {
    const at = (parsed.ast.items.find((item) => item.kind !== "Query") ?? queries[1] ?? parsed.ast.items[0])?.span ?? startSpan();
    diagnostics.push(
      error(
        "E315",
        "an ad-hoc query is one QUERY, or a body (statements and a RETURN), and no schema",
        at,
        "declare types in the project's .hx files; send one query at a time",
      ),
    );
    return fail();
  }
  try {
    const offered = whole ? undefined : new Map(Object.entries(params));
    const [ir] = checkQueries(queries, prepared.schema, diagnostics, { bm25: prepared.bm25, ...(offered ? { offered } : {}) });
    if (ir === undefined || hasErrors(diagnostics)) return fail();
    const script = queryScript(ir, prepared.labels);
    sortDiagnostics(diagnostics);
    return {
      diagnostics: shown(diagnostics).map(at),
      query: ir,
      script,
      plan: explainQuery(ir),
      explain: (stats, params) => explainQuery(ir, new RowEstimator(stats, params)),
    };
  } catch (e) {
    // A bug in the compiler, not in the query: reported as E999, as compileProject does.
    const name = e instanceof QueryInternalError ? e.query : "query";
    diagnostics.push(
      error(
        "E999",
        `internal compiler error: ${e instanceof Error ? e.message : String(e)}`,
        startSpan(),
        `please report this with the query ${name}`,
      ),
    );
    return fail();
  }
}

function startSpan(): Span {
  const at: Position = { offset: 0, line: 1, column: 1 };
  return { file: ADHOC_FILE, start: at, end: at };
}

/**
 * A body's diagnostic at the line and column of the text as sent: the header took line 1, and an
 * expression's first line starts after EXPRESSION_PREFIX (`prefix` characters). An expression's
 * RETURN is ours: what lands on it is placed at the end of the text (`end`) and worded as the end
 * of the query. Positions a message names ("opened at line 2, column 25") move the same way.
 */
function moveUp(d: Diagnostic, prefix: number, end: { line: number; column: number } | null): Diagnostic {
  const shift = (p: Position): Position => {
    const line = Math.max(1, p.line - 1);
    if (end !== null && line > end.line) return { offset: p.offset, ...end };
    return {
      offset: Math.max(0, p.offset - BODY_HEADER.length - prefix),
      line,
      column: p.line > 2 ? p.column : p.line === 2 ? Math.max(1, p.column - prefix) : 1,
    };
  };
  let message = d.message.replace(/\bline (\d+), column (\d+)/g, (_, line: string, column: string) => {
    const p = shift({ offset: 0, line: Number(line), column: Number(column) });
    return `line ${p.line}, column ${p.column}`;
  });
  if (end !== null) message = message.replace("found 'RETURN'", "found the end of the query").replace("'::RETURN'", "'::'");
  return { ...d, message, span: { ...d.span, start: shift(d.span.start), end: shift(d.span.end) } };
}
