// TypeScript to JavaScript for generated query modules (each on its own, `isolatedModules`).
// The only module of `serve` that loads TypeScript, and only when the compile cache misses.
import { ts } from "ts-morph";
import { ProjectError } from "./sources.js";

const TRANSPILE_OPTIONS: ts.TranspileOptions = {
  compilerOptions: {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    verbatimModuleSyntax: false,
    isolatedModules: true,
  },
  reportDiagnostics: true,
};

/** The JavaScript of one generated query file; a ProjectError when it does not transpile. */
export function transpileQuery(path: string, source: string): string {
  const output = ts.transpileModule(source, { ...TRANSPILE_OPTIONS, fileName: path });
  const problems = (output.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (problems.length > 0) {
    const text = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("; ");
    throw new ProjectError(`generated ${path} does not transpile: ${text}`);
  }
  return output.outputText;
}
