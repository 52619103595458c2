// Compile-time knowledge about value types: describing them, checking literals against them, and
// deciding whether a parameter of one type can be stored in a field of another.
import type { Literal } from "../syntax/ast.js";
import { helixTypeName } from "../../core/schema.js";
import type { JsonValue, ValueType } from "../../core/schema.js";
import { F32_MAX_TEXT, F64_MAX_TEXT, fitsF32 } from "../../core/numeric.js";
import { dateMillis } from "../../core/values.js";
import { integerRange, isIntegerScalar, isNumericScalar } from "../../core/scalars.js";

export function isNumericType(type: ValueType): boolean {
  return type.kind === "scalar" && isNumericScalar(type.name);
}

export function isIntegerType(type: ValueType): boolean {
  return type.kind === "scalar" && isIntegerScalar(type.name);
}

export type Fit = { ok: true; value: JsonValue } | { ok: false; message: string };

type NumberLiteral = Literal & { kind: "Number" };

/**
 * Why a number literal cannot be used as written, or null: one beyond the F64 range (it would
 * become ±Infinity, which JSON cannot carry), or an integer beyond ±2^53 - 1, which Strand cannot
 * store exactly. An integer is a literal written without `.` or exponent, or, when `asInteger`
 * (the literal goes where an integer type is expected), any integral value: 1e20 is no more exact
 * than 100000000000000000000. The one range check of number literals.
 */
export function numberLiteralProblem(literal: NumberLiteral, asInteger = false): string | null {
  if (!Number.isFinite(literal.value)) return `${literal.raw} is beyond the F64 range (magnitude at most ${F64_MAX_TEXT})`;
  if ((asInteger || !literal.isFloat) && !Number.isSafeInteger(literal.value) && Number.isInteger(literal.value)) {
    return `${literal.raw} is beyond ±${Number.MAX_SAFE_INTEGER}, the largest integer Strand stores exactly`;
  }
  return null;
}

/**
 * Why a number literal cannot be an F32 value (a field, a parameter, a vector component: the
 * vector index stores f32), or null. `range` names the range in the message.
 */
export function f32LiteralProblem(literal: NumberLiteral, range = "the F32 range"): string | null {
  return fitsF32(literal.value) ? null : `${literal.raw} is beyond ${range} (magnitude at most ${F32_MAX_TEXT})`;
}

/** Does a literal written in the source fit a field or parameter type? */
export function literalFitsType(literal: Literal, type: ValueType): Fit {
  const want = helixTypeName(type);
  if (type.kind !== "scalar") return { ok: false, message: `a ${literal.kind.toLowerCase()} literal is not ${want}` };
  switch (literal.kind) {
    case "String":
      if (type.name === "String") return { ok: true, value: literal.value };
      if (type.name === "ID") {
        return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(literal.value)
          ? { ok: true, value: literal.value.toLowerCase() }
          : { ok: false, message: `"${literal.value}" is not an ID (a UUID such as "0193b4c2-…")` };
      }
      if (type.name === "Date") {
        // The forms a Date parameter accepts (core/values.ts), so literals and requests agree.
        const time = dateMillis(literal.value);
        return time === undefined
          ? {
              ok: false,
              message: `"${literal.value}" is not a date (use RFC 3339 with an offset, e.g. "2024-05-01T12:00:00Z", or YYYY-MM-DD)`,
            }
          : { ok: true, value: new Date(time).toISOString() };
      }
      return { ok: false, message: `expected ${want}, found a string` };
    case "Number": {
      const range = integerRange(type.name);
      const problem = numberLiteralProblem(literal, range !== undefined);
      if (problem !== null) return { ok: false, message: problem };
      if (range !== undefined) {
        if (!Number.isInteger(literal.value)) return { ok: false, message: `expected an integer (${want}), found ${literal.raw}` };
        if (literal.value < range.min || literal.value > range.max) {
          return { ok: false, message: `${literal.raw} is out of range for ${want} (${range.min}..${range.max})` };
        }
        return { ok: true, value: literal.value };
      }
      if (type.name === "Date") {
        // Integer unix seconds, as a Date parameter accepts them.
        const time = Number.isInteger(literal.value) ? dateMillis(literal.value) : undefined;
        return time === undefined
          ? {
              ok: false,
              message: `expected a Date (an RFC 3339 string, YYYY-MM-DD, or integer unix seconds in years 0000-9999), found ${literal.raw}`,
            }
          : { ok: true, value: new Date(time).toISOString() };
      }
      if (type.name === "F32") {
        const f32 = f32LiteralProblem(literal);
        return f32 === null ? { ok: true, value: literal.value } : { ok: false, message: f32 };
      }
      if (type.name === "F64") return { ok: true, value: literal.value };
      return { ok: false, message: `expected ${want}, found the number ${literal.raw}` };
    }
    case "Boolean":
      return type.name === "Boolean"
        ? { ok: true, value: literal.value }
        : { ok: false, message: `expected ${want}, found ${literal.value}` };
    case "None":
      return { ok: false, message: `expected ${want}, found NONE` };
    case "Now":
      return type.name === "Date" ? { ok: true, value: null } : { ok: false, message: `NOW is a Date, not ${want}` };
  }
}

/**
 * Can a value of type `from` (a parameter's declared type) be written to a field of type `to`?
 * Kinds must agree; numeric ranges are checked at run time (HTTP 400), since a wider integer
 * parameter may well hold a value that fits.
 */
export function assignable(from: ValueType, to: ValueType): boolean {
  if (from.kind === "scalar" && to.kind === "scalar") {
    if (isNumericScalar(from.name) && isNumericScalar(to.name)) return isIntegerScalar(to.name) ? isIntegerScalar(from.name) : true;
    if (from.name === to.name) return true;
    // IDs and Dates travel as strings; a String parameter may carry either (validated when written).
    return from.name === "String" && (to.name === "ID" || to.name === "Date");
  }
  if (from.kind === "array" && to.kind === "array") return assignable(from.element, to.element);
  if (from.kind === "object" && to.kind === "object") {
    return to.fields.every((tf) => {
      const ff = from.fields.find((f) => f.name === tf.name);
      return ff === undefined ? tf.optional : assignable(ff.type, tf.type);
    });
  }
  return false;
}

/** The TypeScript type of a value on the wire. */
export function tsTypeOf(type: ValueType): string {
  switch (type.kind) {
    case "scalar":
      if (isNumericScalar(type.name)) return "number";
      if (type.name === "Boolean") return "boolean";
      return "string";
    case "array": {
      const inner = tsTypeOf(type.element);
      return /^[a-z]+$/.test(inner) ? `${inner}[]` : `Array<${inner}>`;
    }
    case "object":
      return `{ ${type.fields.map((f) => `${JSON.stringify(f.name)}${f.optional ? "?" : ""}: ${tsTypeOf(f.type)}`).join("; ")} }`;
  }
}
