// HelixQL's scalar types and what every layer needs to know about each: whether it is a number,
// and for the integer types the values they accept. The one catalogue: the compiler's literal
// checks, value validation, the MCP input schemas and filters all read it. (The grammar keeps
// its own list of the names; test/scalars.test.ts checks that the two agree.)

export interface IntRange {
  min: number;
  max: number;
}

export interface ScalarInfo {
  /** Its values are JSON numbers. */
  readonly numeric: boolean;
  /**
   * For an integer type, the values it accepts; null for every other type. 64/128-bit integers
   * travel as JSON numbers, so only their exactly representable part, ±Number.MAX_SAFE_INTEGER
   * (2^53 - 1), is accepted.
   */
  readonly range: Readonly<IntRange> | null;
}

const SAFE = Number.MAX_SAFE_INTEGER;

export const SCALARS = {
  String: { numeric: false, range: null },
  Boolean: { numeric: false, range: null },
  I8: { numeric: true, range: { min: -128, max: 127 } },
  I16: { numeric: true, range: { min: -32768, max: 32767 } },
  I32: { numeric: true, range: { min: -2147483648, max: 2147483647 } },
  I64: { numeric: true, range: { min: -SAFE, max: SAFE } },
  U8: { numeric: true, range: { min: 0, max: 255 } },
  U16: { numeric: true, range: { min: 0, max: 65535 } },
  U32: { numeric: true, range: { min: 0, max: 4294967295 } },
  U64: { numeric: true, range: { min: 0, max: SAFE } },
  U128: { numeric: true, range: { min: 0, max: SAFE } },
  F32: { numeric: true, range: null },
  F64: { numeric: true, range: null },
  ID: { numeric: false, range: null },
  Date: { numeric: false, range: null },
} as const satisfies Record<string, ScalarInfo>;

export type ScalarName = keyof typeof SCALARS;

export const SCALAR_NAMES = Object.keys(SCALARS) as ScalarName[];

/** The values an integer type accepts; undefined for every other scalar. */
export function integerRange(name: ScalarName): Readonly<IntRange> | undefined {
  return (SCALARS[name] as ScalarInfo).range ?? undefined;
}

export function isNumericScalar(name: ScalarName): boolean {
  return SCALARS[name].numeric;
}

export function isIntegerScalar(name: ScalarName): boolean {
  return integerRange(name) !== undefined;
}

/** F32 and F64: numbers that need not be integers (and the elements of a vector). */
export function isFloatScalar(name: ScalarName): boolean {
  return isNumericScalar(name) && !isIntegerScalar(name);
}
