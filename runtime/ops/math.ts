// HelixQL's math functions and list aggregates over wire values. Results must travel as JSON,
// which has no NaN or Infinity, so any non-finite result is an INVALID_VALUE naming the
// function instead of a silent null.
import { StrandError } from "../../core/errors.js";
import type { GraphItem, PropValue } from "../../core/items.js";
import type { AggregateFn, MathFn, MathSource } from "../../core/query-context.js";
import { MATH_ARITY } from "../../core/functions.js";
import { describeValue } from "../../core/values.js";

function invalid(message: string): StrandError {
  return new StrandError("INVALID_VALUE", message);
}

/** Half away from zero (Math.round rounds -2.5 to -2). */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/** log_base(x); bases 2 and 10 use the exact library functions (LOG(1000, 10) is 3, not 2.9999999999999996). */
function logBase(x: number, base: number): number {
  if (base === 10) return Math.log10(x);
  if (base === 2) return Math.log2(x);
  return Math.log(x) / Math.log(base);
}

function apply(fn: MathFn, a: number, b: number): number {
  switch (fn) {
    case "ADD":
      return a + b;
    case "SUB":
      return a - b;
    case "MUL":
      return a * b;
    case "DIV":
      if (b === 0) throw invalid(`DIV: division by zero (${a} / 0)`);
      return a / b;
    case "POW":
      return a ** b;
    case "MOD":
      if (b === 0) throw invalid(`MOD: modulo by zero (${a} % 0)`);
      return a % b; // the sign of the dividend, like Rust's %
    case "ABS":
      return Math.abs(a);
    case "SQRT":
      return Math.sqrt(a);
    case "LN":
      return Math.log(a);
    case "LOG10":
      return Math.log10(a);
    case "LOG":
      // Math.log(8) / Math.log(0) is -0: a base without a logarithm must not pass as a result.
      if (b <= 0 || b === 1) throw invalid(`LOG: the base must be positive and not 1 (LOG(${a}, ${b}))`);
      return logBase(a, b);
    case "EXP":
      return Math.exp(a);
    case "CEIL":
      return Math.ceil(a);
    case "FLOOR":
      return Math.floor(a);
    case "ROUND":
      return roundHalfAway(a);
    case "SIN":
      return Math.sin(a);
    case "COS":
      return Math.cos(a);
    case "TAN":
      return Math.tan(a);
    case "ASIN":
      return Math.asin(a);
    case "ACOS":
      return Math.acos(a);
    case "ATAN":
      return Math.atan(a);
    case "ATAN2":
      return Math.atan2(a, b);
    case "PI":
      return Math.PI;
    case "E":
      return Math.E;
    case "MIN":
      return Math.min(a, b);
    case "MAX":
      return Math.max(a, b);
  }
}

/**
 * A math argument that is not a number. An absent one (null: a field the record lacks) says so,
 * naming the argument's source and the item when known: `ADD: argument 1 (_::{n}) is absent on N::C <id>`.
 */
function notANumber(fn: MathFn, i: number, arg: PropValue, source: MathSource | null, item: GraphItem | null): StrandError {
  const which = `${fn}: argument ${i + 1}${source === null ? "" : ` (${source.text})`}`;
  if (arg !== null) return invalid(`${which} must be a number, got ${describeValue(arg)}`);
  if (item === null) return invalid(`${which} is absent (null); it must be a number`);
  return invalid(`${which} is absent on ${source?.kind ?? "N"}::${item.label} ${item.id}; it must be a number`);
}

/**
 * `fn` applied to `args` (see QueryContext.math). Each argument must be a number; the wrong
 * number of arguments is a bug in generated code (a plain Error, not a user error).
 */
export function math(
  fn: MathFn,
  args: readonly PropValue[],
  sources?: readonly (MathSource | null)[],
  item0?: GraphItem | null,
  item1?: GraphItem | null,
): number {
  const arity = MATH_ARITY[fn];
  if (arity === undefined) throw new Error(`unknown math function '${String(fn)}'`);
  if (args.length !== arity) throw new Error(`${fn} takes ${arity} arguments, got ${args.length}`);
  for (let i = 0; i < args.length; i++) {
    if (typeof args[i] !== "number") throw notANumber(fn, i, args[i]!, sources?.[i] ?? null, (i === 0 ? item0 : item1) ?? null);
  }
  const a = args[0] as number;
  const b = args[1] as number;
  const result = apply(fn, a, b);
  if (!Number.isFinite(result)) {
    throw invalid(`${fn}(${(args as number[]).join(", ")}) is not a finite number`);
  }
  return result === 0 ? 0 : result; // normalise -0
}

/** `fn` over a list of values (see QueryContext.aggregate). */
export function aggregate(fn: AggregateFn, values: readonly PropValue[]): number | null {
  if (fn === "COUNT") return values.length;
  let n = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue; // an absent field contributes nothing
    if (typeof v !== "number") throw invalid(`${fn}: element ${i} must be a number, got ${describeValue(v)}`);
    n++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  let result: number;
  switch (fn) {
    case "SUM":
      // An intermediate overflow ([1e308, 1e308, -1e308]) is not a sum beyond the F64 range.
      result = Number.isFinite(sum) ? sum : scaledMean(values, n) * n;
      break;
    case "AVG":
      if (n === 0) return null;
      result = Number.isFinite(sum) ? sum / n : scaledMean(values, n);
      break;
    case "MIN":
      if (n === 0) return null;
      result = min;
      break;
    case "MAX":
      if (n === 0) return null;
      result = max;
      break;
  }
  if (!Number.isFinite(result)) throw invalid(`${fn} of ${n} values is not a finite number`);
  return result === 0 ? 0 : result;
}

/**
 * The mean of the n numbers of `values` when their sum overflows: Σ v/n, each term at most the
 * largest |v|, so the mean of finite numbers is always finite (1e308 and 1e308 average 1e308).
 */
function scaledMean(values: readonly PropValue[], n: number): number {
  let mean = 0;
  for (const v of values) if (typeof v === "number") mean += v / n;
  // Rounding of the terms may carry a mean of numbers near the F64 limit just past it.
  return Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, mean));
}
