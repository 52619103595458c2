// Typed reads of one TOML table that collect errors naming the culprit as `file: key.path`.
// Integers come from smol-toml as bigint (integersAsBigInt), so `m = 16.0` is not an integer.
import type { TomlTable, TomlValue } from "smol-toml";
import { BYTE_SIZE_FORM, parseByteSize } from "./byte-size.js";

export class TomlReader {
  private readonly seen = new Set<string>();

  constructor(
    private readonly values: TomlTable,
    /** Prefix of every key in messages: "strand.toml: " plus the table's dotted path. */
    private readonly where: string,
    private readonly errors: string[],
    /** The table's dotted path without the file ("local.dev."), for unknownKeys. */
    private readonly path = "",
  ) {}

  private name(key: string): string {
    return `${this.where}${key}`;
  }

  private get(key: string): TomlValue | undefined {
    this.seen.add(key);
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }

  private fail(key: string, expected: string, value: TomlValue): void {
    this.errors.push(`${this.name(key)}: expected ${expected}, got ${describe(value)}`);
  }

  boolean(key: string, fallback: boolean): boolean {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v === "boolean") return v;
    this.fail(key, "true or false", v);
    return fallback;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v === "bigint" && v >= BigInt(min) && v <= BigInt(max)) return Number(v);
    this.fail(key, `an integer from ${min} to ${max}`, v);
    return fallback;
  }

  /** As integer, but undefined when the key is absent (the consumer then applies its own default). */
  optionalInteger(key: string, min: number, max: number): number | undefined {
    if (this.get(key) === undefined) return undefined;
    return this.integer(key, min, min, max);
  }

  /** A size in bytes, written as an integer or a string such as "8MiB" (byte-size.ts); undefined when absent. */
  optionalByteSize(key: string, min: number, max: number): number | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    const bytes =
      typeof v === "bigint" ? (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null) : typeof v === "string" ? parseByteSize(v) : null;
    if (bytes !== null && bytes >= min && bytes <= max) return bytes;
    this.fail(key, `${BYTE_SIZE_FORM}, from ${min} to ${max} bytes`, v);
    return undefined;
  }

  oneOf<T extends string>(key: string, values: readonly T[], fallback: T): T {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v === "string" && (values as readonly string[]).includes(v)) return v as T;
    this.fail(key, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`, v);
    return fallback;
  }

  /** A string that `check` accepts (it returns an error message otherwise). */
  string(key: string, fallback: string, check: (s: string) => string | null): string {
    const v = this.get(key);
    if (v === undefined) return fallback;
    if (typeof v !== "string") {
      this.fail(key, "a string", v);
      return fallback;
    }
    const problem = check(v);
    if (problem === null) return v;
    this.errors.push(`${this.name(key)}: ${problem}`);
    return fallback;
  }

  /** As string, but undefined when the key is absent (or its value refused). */
  optionalString(key: string, check: (s: string) => string | null): string | undefined {
    if (this.get(key) === undefined) return undefined;
    const text = this.string(key, "", check);
    return text === "" ? undefined : text;
  }

  /** A sub-table (`[key]` or an inline table); an empty one when absent. */
  table(key: string): TomlReader {
    const v = this.get(key);
    let sub: TomlTable = {};
    if (v !== undefined) {
      if (isTable(v)) sub = v;
      else this.fail(key, "a table", v);
    }
    return new TomlReader(sub, `${this.name(key)}.`, this.errors, `${this.path}${key}.`);
  }

  /** Marks keys as known and unused (another tool's settings). */
  ignore(...keys: string[]): void {
    for (const k of keys) this.seen.add(k);
  }

  /** Keys of this table that no read asked for are errors. */
  rejectUnknown(hint: string): void {
    for (const key of Object.keys(this.values)) {
      if (!this.seen.has(key)) this.errors.push(`${this.name(key)}: unknown key (${hint})`);
    }
  }

  /** The dotted paths ("local.dev.vector_config.db_max_size_gb") of the keys no read asked for. */
  unknownKeys(): string[] {
    return Object.keys(this.values)
      .filter((key) => !this.seen.has(key))
      .map((key) => `${this.path}${key}`);
  }

  keys(): string[] {
    return Object.keys(this.values);
  }
}

export function isTable(v: TomlValue): v is TomlTable {
  // Dates are TomlDate, a Date subclass (smol-toml's default useLegacyDate).
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

function describe(v: TomlValue): string {
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
