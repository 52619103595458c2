// HelixQL's built-in functions of values: math (`ADD(a, b)`, `SQRT(x)`, `PI()`) and aggregates
// over lists (`SUM(_::Out<Rated>::{stars})`). Their names are what generated code passes to
// QueryContext.math / QueryContext.aggregate.

export type MathFn =
  | "ADD"
  | "SUB"
  | "MUL"
  | "DIV"
  | "POW"
  | "MOD"
  | "ABS"
  | "SQRT"
  | "LN"
  | "LOG10"
  | "LOG"
  | "EXP"
  | "CEIL"
  | "FLOOR"
  | "ROUND"
  | "SIN"
  | "COS"
  | "TAN"
  | "ASIN"
  | "ACOS"
  | "ATAN"
  | "ATAN2"
  | "PI"
  | "E"
  | "MIN"
  | "MAX";

export type AggregateFn = "SUM" | "AVG" | "MIN" | "MAX" | "COUNT";

/** Arity of each math function; MIN and MAX with one (list) argument are aggregates instead. */
export const MATH_ARITY: Readonly<Record<MathFn, number>> = {
  ADD: 2,
  SUB: 2,
  MUL: 2,
  DIV: 2,
  POW: 2,
  MOD: 2,
  ABS: 1,
  SQRT: 1,
  LN: 1,
  LOG10: 1,
  LOG: 2,
  EXP: 1,
  CEIL: 1,
  FLOOR: 1,
  ROUND: 1,
  SIN: 1,
  COS: 1,
  TAN: 1,
  ASIN: 1,
  ACOS: 1,
  ATAN: 1,
  ATAN2: 2,
  PI: 0,
  E: 0,
  MIN: 2,
  MAX: 2,
};

/** Functions whose result is an integer when every argument is. */
export const INTEGER_PRESERVING: ReadonlySet<MathFn> = new Set<MathFn>(["ADD", "SUB", "MUL", "MOD", "ABS", "MIN", "MAX"]);
/** Functions whose result is always an integer-valued number. */
export const INTEGER_RESULT: ReadonlySet<MathFn> = new Set<MathFn>(["CEIL", "FLOOR", "ROUND"]);

export const AGGREGATE_FNS: readonly AggregateFn[] = ["SUM", "AVG", "MIN", "MAX", "COUNT"];

export function isMathFn(name: string): name is MathFn {
  return Object.hasOwn(MATH_ARITY, name);
}
