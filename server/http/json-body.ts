// Turns the raw request body into the value handed to parameter validation. An empty (or
// all-whitespace) body means "no parameters": `{}`.
import { StrandError } from "../../core/errors.js";
import { findJsonSyntaxProblem } from "./json-syntax.js";

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
const EMPTY_BODY = /^[ \t\r\n]*$/;

export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.byteLength === 0) return {};
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new StrandError("INVALID_JSON", "request body is not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    if (EMPTY_BODY.test(text)) return {};
    throw invalidJson(text, error);
  }
}

function invalidJson(text: string, parseError: unknown): StrandError {
  const problem = findJsonSyntaxProblem(text);
  if (problem === null) {
    const detail = parseError instanceof Error ? parseError.message : String(parseError);
    return new StrandError("INVALID_JSON", `invalid JSON: ${detail}`);
  }
  return new StrandError(
    "INVALID_JSON",
    `invalid JSON at position ${problem.position} (line ${problem.line}, column ${problem.column}): ${problem.message}`,
  );
}
