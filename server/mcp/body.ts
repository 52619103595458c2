// The words of a refused tool input: every failure is a 400 that names the field by its path in
// the body ("data.filter.properties[0][1].operator").
import { StrandError } from "../../core/errors.js";
import { describeValue } from "../../core/values.js";

export type JsonObject = Record<string, unknown>;

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
