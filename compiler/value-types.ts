// Compile-time knowledge about value types: describing them, checking literals against them, and
// deciding whether a parameter of one type can be stored in a field of another.
import type { Literal } from "./ast.js";
import type { JsonValue, ScalarName, ValueType } from "../runtime/schema.js";
import { fitsF32 } from "../runtime/vector/metric.js";
import { dateMillis } from "../runtime/values.js";

const INTEGER_RANGES: Partial<Record<ScalarName, [number, number]>> = {
  I8: [-128, 127],
  I16: [-32768, 32767],
  I32: [-2147483648, 2147483647],
  I64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  U8: [0, 255],
  U16: [0, 65535],
  U32: [0, 4294967295],
  U64: [0, Number.MAX_SAFE_INTEGER],
  U128: [0, Number.MAX_SAFE_INTEGER],
};

export function isIntegerScalar(name: ScalarName): boolean {
  return INTEGER_RANGES[name] !== undefined;
}

export function isNumericScalar(name: ScalarName): boolean {
  return isIntegerScalar(name) || name === "F32" || name === "F64";
}

export function isNumericType(type: ValueType): boolean {
  return type.kind === "scalar" && isNumericScalar(type.name);
}

export function isIntegerType(type: ValueType): boolean {
  return type.kind === "scalar" && isIntegerScalar(type.name);
}

export function describeValueType(type: ValueType): string {
  switch (type.kind) {
    case "scalar":
      return type.name;
    case "array":
      return `[${describeValueType(type.element)}]`;
    case "object":
      return `{${type.fields.map((f) => `${f.name}${f.optional ? "?" : ""}: ${describeValueType(f.type)}`).join(", ")}}`;
  }
}

export type Fit = { ok: true; value: JsonValue } | { ok: false; message: string };

type NumberLiteral = Literal & { kind: "Number" };

/**
 * Why a number literal cannot be used as written, or null: one beyond the F64 range (it would
 * become ±Infinity, which JSON cannot carry), or an integer (written without `.` or exponent)
 * beyond ±2^53 - 1, which Strand cannot store exactly. The one range check of number literals.
 */
export function numberLiteralProblem(literal: NumberLiteral): string | null {
  if (!Number.isFinite(literal.value)) return `${literal.raw} is beyond the F64 range (magnitude at most 1.7976931348623157e308)`;
  if (!literal.isFloat && !Number.isSafeInteger(literal.value)) return unsafeIntegerLiteral(literal);
  return null;
}

function unsafeIntegerLiteral(literal: NumberLiteral): string {
  return `${literal.raw} is beyond ±${Number.MAX_SAFE_INTEGER}, the largest integer Strand stores exactly`;
}

/** Does a literal written in the source fit a field or parameter type? */
export function literalFitsType(literal: Literal, type: ValueType): Fit {
  const want = describeValueType(type);
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
        // The forms a Date parameter accepts (runtime/values.ts), so literals and requests agree.
        const time = dateMillis(literal.value);
        return time === undefined
          ? { ok: false, message: `"${literal.value}" is not a date (use RFC 3339 with an offset, e.g. "2024-05-01T12:00:00Z", or YYYY-MM-DD)` }
          : { ok: true, value: new Date(time).toISOString() };
      }
      return { ok: false, message: `expected ${want}, found a string` };
    case "Number": {
      const problem = numberLiteralProblem(literal);
      if (problem !== null) return { ok: false, message: problem };
      const range = INTEGER_RANGES[type.name];
      if (range !== undefined) {
        if (!Number.isInteger(literal.value)) return { ok: false, message: `expected an integer (${want}), found ${literal.raw}` };
        // 1e20 is an integer too: written with an exponent, but no more exact than 100000000000000000000.
        if (!Number.isSafeInteger(literal.value)) return { ok: false, message: unsafeIntegerLiteral(literal) };
        if (literal.value < range[0] || literal.value > range[1]) {
          return { ok: false, message: `${literal.raw} is out of range for ${want} (${range[0]}..${range[1]})` };
        }
        return { ok: true, value: literal.value };
      }
      if (type.name === "Date") {
        // Integer unix seconds, as a Date parameter accepts them.
        const time = Number.isInteger(literal.value) ? dateMillis(literal.value) : undefined;
        return time === undefined
          ? { ok: false, message: `expected a Date (an RFC 3339 string, YYYY-MM-DD, or integer unix seconds in years 0000-9999), found ${literal.raw}` }
          : { ok: true, value: new Date(time).toISOString() };
      }
      if (type.name === "F32" && !fitsF32(literal.value)) return { ok: false, message: `${literal.raw} is beyond the F32 range (magnitude at most 3.4028235e38)` };
      if (type.name === "F32" || type.name === "F64") return { ok: true, value: literal.value };
      return { ok: false, message: `expected ${want}, found the number ${literal.raw}` };
    }
    case "Boolean":
      return type.name === "Boolean" ? { ok: true, value: literal.value } : { ok: false, message: `expected ${want}, found ${literal.value}` };
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
