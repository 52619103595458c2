// Number limits and how messages word them, shared by the value checks (values.ts), vector
// components (vector/metric.ts) and the compiler's literal checks (compiler/ir/value-types.ts).
// A leaf module with no imports, so that values.ts need not import the vector code.

/** The largest F32 magnitude as messages write it (anything up to it rounds to f32's largest finite value). */
export const F32_MAX_TEXT = "3.4028235e38";

/** The largest F64 magnitude (Number.MAX_VALUE) as messages write it. */
export const F64_MAX_TEXT = "1.7976931348623157e308";

/**
 * True when `x` is a finite number an f32 can hold (it may round, but not to ±Infinity). The one
 * F32 range check: F32 fields and parameters, vector components (the HNSW index stores f32),
 * and the compiler's F32 and vector literals.
 */
export function fitsF32(x: number): boolean {
  return Number.isFinite(Math.fround(x));
}

/** What a vector component beyond the f32 range is told, after its name. */
export const F32_RULE = `must fit in F32 (magnitude at most ${F32_MAX_TEXT}, the range of the vector index)`;

/** How a non-finite number is described: JSON gives one only for a literal beyond the F64 range (1e999). */
export const BEYOND_F64 = `a number beyond the F64 range (magnitude above ${F64_MAX_TEXT})`;
