// How ConfigReader (config-reader.ts) reads the values of each file format: TOML as smol-toml
// parses it (integers as bigint, so `m = 16.0` is a float, not an integer) and JSON.
import type { TomlTable, TomlValue } from "smol-toml";
import type { ValueAdapter } from "./config-reader.js";

export function isTable(v: TomlValue): v is TomlTable {
  // Dates are TomlDate, a Date subclass (smol-toml's default useLegacyDate).
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export const TOML_VALUES: ValueAdapter<TomlValue> = {
  integerOf: (v) => (typeof v === "bigint" ? v : null),
  stringOf: (v) => (typeof v === "string" ? v : null),
  booleanOf: (v) => (typeof v === "boolean" ? v : null),
  tableOf: (v) => (isTable(v) ? v : null),
  tableWord: "a table",
  describe: describeToml,
};

function describeToml(v: TomlValue): string {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return describeFloat(v);
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return "an array";
  return isTable(v) ? "a table" : "a date";
}

/**
 * A TOML float as written: `m = 16.0` reads as the number 16, which String() would show as a valid
 * integer, so say it is a float (TOML integers arrive as bigints).
 */
function describeFloat(v: number): string {
  if (Number.isNaN(v)) return "nan (a float)";
  if (!Number.isFinite(v)) return `${v > 0 ? "inf" : "-inf"} (a float)`;
  return `${Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(1) : String(v)} (a float)`;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isJsonObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON value as a message shows it: its JSON, cut to 60 characters. */
export function showJson(v: Json): string {
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export const JSON_VALUES: ValueAdapter<Json> = {
  integerOf: (v) => (typeof v === "number" && Number.isSafeInteger(v) ? BigInt(v) : null),
  stringOf: (v) => (typeof v === "string" ? v : null),
  booleanOf: (v) => (typeof v === "boolean" ? v : null),
  tableOf: (v) => (isJsonObject(v) ? v : null),
  tableWord: "an object",
  describe: showJson,
};
