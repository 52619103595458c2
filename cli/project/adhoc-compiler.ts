// `POST /query`'s compiler (server/adhoc/): the served project's schema checked once (when the
// first ad-hoc query comes: most servers never see one), each query text compiled against it
// (compiler/adhoc.ts: JavaScript, no TypeScript loaded) and evaluated, and the result kept in a
// bounded cache. The key is the text and, for a body, the JSON kind of each parameter (where the
// body expects no type, the value's kind types the parameter).
import type { QueryModule } from "../../core/query-module.js";
import type { AdHocCompiled, AdHocCompiler, AdHocDiagnostic } from "../../server/adhoc/adhoc-compiler.js";
import { evaluateQueryModule } from "./query-modules.js";
import type { SourceFile } from "./sources.js";

/** Distinct query texts kept compiled; the least recently used goes first. */
export const ADHOC_CACHE_ENTRIES = 512;

type Compiler = typeof import("../../compiler/adhoc.js");
type Diagnostic = import("../../compiler/diagnostics/diagnostic.js").Diagnostic;

export function adHocCompiler(sources: readonly SourceFile[], options: { bm25: boolean }): AdHocCompiler & { compiles: () => number } {
  let loaded: Promise<{ compiler: Compiler; prepared: ReturnType<Compiler["prepareAdHoc"]> }> | null = null;
  const cache = new Map<string, Promise<AdHocCompiled>>();
  let compiles = 0;
  const compile = async (text: string, params: Readonly<Record<string, unknown>>): Promise<AdHocCompiled> => {
    loaded ??= import("../../compiler/adhoc.js").then((compiler) => ({ compiler, prepared: compiler.prepareAdHoc(sources, options) }));
    const { compiler, prepared } = await loaded;
    if ("diagnostics" in prepared) return { ok: false, diagnostics: prepared.diagnostics.map(adHocDiagnostic) };
    compiles++;
    const result = compiler.compileAdHoc(prepared, text, params);
    if (result.script === null || result.query === null) return { ok: false, diagnostics: result.diagnostics.map(adHocDiagnostic) };
    const query: QueryModule = await evaluateQueryModule(result.script.path, result.script.text);
    const plan = result.plan;
    const explain = result.explain;
    return {
      ok: true,
      query,
      plan: (stats, given) => (stats === null ? plan : explain(stats, given)),
      warnings: result.diagnostics.map(adHocDiagnostic),
    };
  };
  return {
    compiles: () => compiles,
    compile(text, params) {
      const key = `${text}\u0000${Object.keys(params)
        .sort()
        .map((k) => `${k}:${kindOf(params[k])}`)
        .join(",")}`;
      let entry = cache.get(key);
      if (entry !== undefined) {
        cache.delete(key); // re-inserted below: most recently used last
      } else {
        entry = compile(text, params);
        if (cache.size >= ADHOC_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      }
      cache.set(key, entry);
      return entry;
    },
  };
}

function kindOf(v: unknown): string {
  // A list's kind is its elements' together, as the compiler types it ([1, 2.5] is [F64], not [I64]).
  if (Array.isArray(v)) return `[${[...new Set(v.map(kindOf))].sort().join("|")}]`;
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return v === null ? "null" : typeof v;
}

function adHocDiagnostic(d: Diagnostic): AdHocDiagnostic {
  const out: AdHocDiagnostic = {
    code: d.code,
    severity: d.severity,
    message: d.message,
    line: d.span.start.line,
    column: d.span.start.column,
  };
  if (d.hint !== undefined) out.hint = d.hint;
  return out;
}
