// Infix comparisons (`_::{name} == name`, `_::{age} > 18`) are how most query languages compare;
// HelixQL compares with steps (`::EQ`, `::GT`, ...). When the parser stops at such an operator
// where a step could continue the expression, this names the step and rewrites the comparison.

/** Each infix operator, longest first, and the step that does its job. */
const OPERATORS: readonly (readonly [string, string])[] = [
  ["===", "EQ"],
  ["==", "EQ"],
  ["!=", "NEQ"],
  ["<>", "NEQ"],
  [">=", "GTE"],
  ["<=", "LTE"],
  [">", "GT"],
  ["<", "LT"],
  ["=", "EQ"],
];

/** Longest operand shown in the rewrite; a longer one is elided as `..`. */
const MAX_OPERAND = 60;

export interface OperatorMistake {
  operator: string;
  step: string;
  /** The comparison rewritten as a step, e.g. `_::{name}::EQ(name)`. */
  rewrite: string;
}

/** The comparison operator at `offset` and its rewrite, or null when there is none. */
export function comparisonAt(text: string, offset: number): OperatorMistake | null {
  const found = OPERATORS.find(([op]) => text.startsWith(op, offset));
  if (found === undefined) return null;
  const [operator, step] = found;
  // `=>` and `<-` are HelixQL's own arrows, never comparisons.
  const after = text[offset + operator.length];
  if ((operator === "=" && after === ">") || (operator === "<" && after === "-")) return null;
  // `Out <Follows>`: a type argument after a space, not a comparison (E001 says where it went wrong).
  if (operator === "<" && /^<\s*[A-Za-z_][A-Za-z0-9_]*\s*>/.test(text.slice(offset, offset + 200))) return null;
  const left = operand(text, offset, -1);
  const right = operand(text, offset + operator.length, 1);
  return { operator, step, rewrite: `${left ?? "a"}::${step}(${right ?? "b"})` };
}

/**
 * The operand written before (`dir` -1, ending at `from`) or after (`dir` 1, starting at `from`)
 * the operator: up to a `,`, a line break or the bracket that encloses it; null when empty or
 * longer than MAX_OPERAND.
 */
function operand(text: string, from: number, dir: -1 | 1): string | null {
  let depth = 0;
  let i = dir === 1 ? from : from - 1;
  let inString = false;
  for (; i >= 0 && i < text.length; i += dir) {
    const c = text[i]!;
    if (c === '"' && text[i - 1] !== "\\") inString = !inString;
    if (inString) continue;
    if (c === "\n" || (c === "," && depth === 0)) break;
    const opens = dir === 1 ? "([{" : ")]}";
    const closes = dir === 1 ? ")]}" : "([{";
    if (opens.includes(c)) depth++;
    else if (closes.includes(c)) {
      if (depth === 0) break;
      depth--;
    }
  }
  const raw = dir === 1 ? text.slice(from, i) : text.slice(i + 1, from);
  const written = raw.trim();
  if (written.length === 0 || written.length > MAX_OPERAND) return null;
  return written;
}
