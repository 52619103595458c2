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
}

export type AdHocCompiled =
  | { ok: true; query: QueryModule; plan: AdHocPlanStep[]; warnings: AdHocDiagnostic[] }
  | { ok: false; diagnostics: AdHocDiagnostic[] };

export interface AdHocCompiler {
  /** The query of `text` (a whole QUERY, or a body whose parameters are `params`' keys), compiled once per distinct text. */
  compile(text: string, params: Readonly<Record<string, unknown>>): Promise<AdHocCompiled>;
}
