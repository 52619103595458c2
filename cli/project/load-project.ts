// Loads a project for serving without a build step: compile the *.hx files in process, transpile
// each generated `queries/*.ts` to JavaScript and import it from a data: URL. Generated query
// modules import only types, so the transpiled code has no imports left to resolve.
import { ts } from "ts-morph";
import type { QueryModule } from "../../core/query-module.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { compileDir, type CompileDirOptions } from "./compile-dir.js";
import { ProjectError } from "./sources.js";

export interface LoadedProject {
  schema: SchemaDescriptor;
  /** In generated-file order (sorted by name). */
  queries: QueryModule[];
  /** the embedding models named by `#[model("..")]`, checked at startup */
  models: string[];
  /** Formatted warnings (empty when none). */
  warnings: string;
}

/** Thrown when the project does not compile; `report` holds the formatted diagnostics. */
export class CompileFailed extends Error {
  constructor(
    readonly report: string,
    readonly errorCount: number,
  ) {
    super(`the project has ${errorCount} error${errorCount === 1 ? "" : "s"}`);
    this.name = "CompileFailed";
  }
}

const TRANSPILE_OPTIONS: ts.TranspileOptions = {
  compilerOptions: {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: false,
    isolatedModules: true,
  },
  reportDiagnostics: true,
};

export async function loadProject(
  dir: string,
  options: Pick<CompileDirOptions, "bm25" | "bm25Origin" | "mcp"> = {},
): Promise<LoadedProject> {
  const compiled = compileDir(dir, options);
  if (!compiled.ok || compiled.result.schema === null) {
    const errors = compiled.result.diagnostics.filter((d) => d.severity === "error").length;
    throw new CompileFailed(compiled.report, Math.max(errors, 1));
  }
  const files = [...compiled.queryFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const queries: QueryModule[] = [];
  for (const file of files) queries.push(await importQueryModule(file.path, file.text));
  const models = [...new Set(compiled.result.queries.flatMap((q) => (q.model === null ? [] : [q.model])))];
  return { schema: compiled.result.schema, queries, warnings: compiled.report, models };
}

/** Transpiles one generated query file and evaluates it as an ES module. */
export async function importQueryModule(path: string, source: string): Promise<QueryModule> {
  const output = ts.transpileModule(source, { ...TRANSPILE_OPTIONS, fileName: path });
  const problems = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length > 0) {
    const text = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ");
    throw new ProjectError(`generated ${path} does not transpile: ${text}`);
  }
  const url = `data:text/javascript;base64,${Buffer.from(output.outputText, "utf8").toString("base64")}`;
  let namespace: { default?: unknown };
  try {
    namespace = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new ProjectError(`generated ${path} failed to load: ${(error as Error).message}`);
  }
  const module = namespace.default;
  if (!isQueryModule(module)) throw new ProjectError(`generated ${path} does not default-export a query module`);
  return module;
}

function isQueryModule(value: unknown): value is QueryModule {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Partial<Record<keyof QueryModule, unknown>>;
  return (
    typeof m.name === "string" &&
    Array.isArray(m.params) &&
    typeof m.writes === "boolean" &&
    Array.isArray(m.returns) &&
    typeof m.run === "function"
  );
}
