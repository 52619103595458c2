// What `POST /query` needs of a compiler: the server layer does not import compiler/, so the
// command that serves puts one in (cli/project/adhoc-compiler.ts).
import type { QueryModule } from "../../core/query-module.js";

export interface AdHocDiagnostic {
  code: string;
  severity: "error" | "warning";
  message: string;
  line: number;
  column: number;
  hint?: string;
}

export interface AdHocPlanStep {
  in: string | null;
  step: string;
  access: string;
  using?: string[];
  /** estimated rows the step yields (per item inside a WHERE or a FOR) */
  rows?: number;
}

/** What the plan's row estimates start from: the store's counts (compiler/plan-rows.ts). */
export interface AdHocPlanStats {
  records: Readonly<Record<string, number>>;
  edgeEnds: Readonly<Record<string, { from: string; to: string }>>;
}

export type AdHocCompiled =
  | {
      ok: true;
      query: QueryModule;
      /** The plan; with the store's counts, each step's estimated rows too. */
      plan: (stats: AdHocPlanStats | null, params: Readonly<Record<string, unknown>>) => AdHocPlanStep[];
      warnings: AdHocDiagnostic[];
    }
  | { ok: false; diagnostics: AdHocDiagnostic[] };

export interface AdHocCompiler {
  /** The query of `text` (a whole QUERY, or a body whose parameters are `params`' keys), compiled once per distinct text. */
  compile(text: string, params: Readonly<Record<string, unknown>>): Promise<AdHocCompiled>;
}
