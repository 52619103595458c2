// Typed access to the peggy-generated HelixQL parser (parser.generated.js, built from
// grammar.peggy with `npm run build:parser`) and to the syntax errors it throws. The generated file
// is committed (.gitattributes marks it generated); test/grammar.test.ts fails when it is stale.
import type { Position } from "./ast.js";
import * as generated from "./parser.generated.js";

/** The start rules compiled into parser.generated.js (see the build:parser script). */
export type StartRule = "SourceFile" | "Expr" | "Type" | "Statement" | "TopLevelItem" | "SchemaItem" | "Step" | "Literal";

export interface PeggyExpectation {
  type: string;
  text?: string;
  description?: string;
  parts?: unknown[];
  inverted?: boolean;
}

export interface PeggySyntaxError {
  message: string;
  expected: PeggyExpectation[] | null;
  found: string | null;
  location: { start: Position; end: Position };
}

const generatedParse: (input: string, options: { grammarSource: string; startRule: StartRule }) => unknown = generated.parse;

export function runParser(text: string, file: string, startRule: StartRule): unknown {
  return generatedParse(text, { grammarSource: file, startRule });
}

export function isPeggySyntaxError(e: unknown): e is PeggySyntaxError {
  if (!(e instanceof generated.SyntaxError)) return false;
  const candidate = e as Partial<PeggySyntaxError>;
  return typeof candidate.location === "object" && candidate.location !== null && typeof candidate.location.start === "object";
}
