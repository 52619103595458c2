// Parses HelixQL source text into the AST of ast.ts. parseSource never throws: a syntax error
// becomes exactly one diagnostic (syntax-error.ts), anything unexpected an internal-error one.
import type { SourceFile } from "./ast.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { runParser } from "./generated-parser.js";
import { diagnosticFor } from "./syntax-error.js";

export interface ParseResult {
  ast: SourceFile | null;
  diagnostics: Diagnostic[];
}

export function parseSource(text: string, file: string): ParseResult {
  // The signature says strings, but JavaScript callers may pass anything; never throw on it.
  const source = asString(text, "");
  const fileName = asString(file, "<input>");
  try {
    const ast = runParser(source, fileName, "SourceFile") as SourceFile;
    return { ast, diagnostics: [] };
  } catch (e) {
    return { ast: null, diagnostics: [diagnosticFor(e, source, fileName)] };
  }
}

function asString(value: unknown, fallback: string): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    return fallback;
  }
}
