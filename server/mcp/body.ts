// Reading a tool's JSON body field by field. Every failure is a 400 that names the field by its
// path in the body ("data.filter.properties[0][1].operator"); unknown members are refused so a
// misspelt field is reported instead of silently ignored.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { closestName } from "../../core/suggest.js";
import { describeValue } from "../../core/values.js";

export type JsonObject = Record<string, unknown>;

const hasOwn = Object.prototype.hasOwnProperty;

export function fieldPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

export function invalid(path: string, expected: string, value: unknown): StrandError {
  return new StrandError("INVALID_PARAMETER", `'${path}' must be ${expected}, got ${describeValue(value)}`);
}

export function missing(path: string, expected: string): StrandError {
  return new StrandError("MISSING_PARAMETER", `missing '${path}' (${expected})`);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` as an object whose members are all in `allowed`. `path` "" is the body itself. */
export function objectAt(value: unknown, path: string, allowed: readonly string[]): JsonObject {
  if (!isObject(value)) {
    if (path === "") throw new StrandError("INVALID_BODY", `request body must be a JSON object, got ${describeValue(value)}`);
    throw invalid(path, "an object", value);
  }
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const suggestion = closestName(key, allowed);
    const hint =
      suggestion !== undefined ? `; did you mean '${suggestion}'?` : ` (expected: ${allowed.length > 0 ? allowed.join(", ") : "none"})`;
    throw new StrandError("UNKNOWN_PARAMETER", `unknown member '${fieldPath(path, echo(key))}'${hint}`);
  }
  return value;
}

/** The member, or undefined when absent or null. */
export function member(obj: JsonObject, key: string): unknown {
  const value = hasOwn.call(obj, key) ? obj[key] : undefined;
  return value === null ? undefined : value;
}

export function requiredMember(obj: JsonObject, key: string, path: string, expected: string): unknown {
  const value = member(obj, key);
  if (value === undefined) throw missing(fieldPath(path, key), expected);
  return value;
}

export function requiredString(obj: JsonObject, key: string, path: string, expected = "a string"): string {
  const value = requiredMember(obj, key, path, expected);
  if (typeof value !== "string" || value === "") throw invalid(fieldPath(path, key), `a non-empty string (${expected})`, value);
  return value;
}

export function requiredObject(obj: JsonObject, key: string, path: string, allowed: readonly string[], expected: string): JsonObject {
  return objectAt(requiredMember(obj, key, path, expected), fieldPath(path, key), allowed);
}

export function integerAt(value: unknown, path: string, min: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) throw invalid(path, `an integer >= ${min}`, value);
  return value;
}

export function booleanAt(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw invalid(path, "true or false", value);
  return value;
}

/** A non-empty array of non-empty strings (or one string, taken as a one-element list). */
export function stringList(value: unknown, path: string): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) throw invalid(path, "a non-empty array of property names", value);
  return list.map((p, i) => {
    if (typeof p !== "string" || p === "") throw invalid(fieldPath(path, i), "a property name", p);
    return p;
  });
}
