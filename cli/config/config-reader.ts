// Typed reads of one table of a configuration file — strand.toml, helix.toml or config.hx.json —
// that collect errors naming the culprit as `file: key.path`. One reader for every file: what
// differs between TOML and JSON (how an integer, a string or a table is told, how a value is
// shown in a message) is a small ValueAdapter (value-adapters.ts).
import { BYTE_SIZE_FORM, parseByteSize } from "./byte-size.js";

/** How one file format's values are read: each `…Of` is null when the value is not of that kind. */
export interface ValueAdapter<V> {
  /** An exact integer (TOML: an integer literal, not `16.0`; JSON: any integral number). */
  integerOf(v: V): bigint | null;
  stringOf(v: V): string | null;
  booleanOf(v: V): boolean | null;
  tableOf(v: V): Readonly<Record<string, V>> | null;
  /** What a sub-table is called in messages ("a table", "an object"). */
  readonly tableWord: string;
  /** The value as a message shows it. */
  describe(v: V): string;
}

export class ConfigReader<V> {
  private readonly seen = new Set<string>();

  constructor(
    private readonly values: Readonly<Record<string, V>>,
    private readonly adapter: ValueAdapter<V>,
    /** Prefix of every key in messages: "strand.toml: " plus the table's dotted path. */
    private readonly where: string,
    private readonly errors: string[],
    /** The table's dotted path without the file ("local.dev."), for unknownKeys. */
    private readonly path = "",
  ) {}

  private name(key: string): string {
    return `${this.where}${key}`;
  }

  /** The raw value of a key (marked as read), for checks of their own. */
  get(key: string): V | undefined {
    this.seen.add(key);
    return Object.hasOwn(this.values, key) ? this.values[key] : undefined;
  }

  private fail(key: string, expected: string, value: V): void {
    this.errors.push(`${this.name(key)}: expected ${expected}, got ${this.adapter.describe(value)}`);
  }

  boolean(key: string, fallback: boolean): boolean {
    const v = this.get(key);
    if (v === undefined) return fallback;
    const b = this.adapter.booleanOf(v);
    if (b !== null) return b;
    this.fail(key, "true or false", v);
    return fallback;
  }

  /** As boolean, but undefined when the key is absent (or its value refused). */
  optionalBoolean(key: string): boolean | undefined {
    const v = this.get(key);
    if (v === undefined) return undefined;
    const b = this.adapter.booleanOf(v);
    if (b === null) this.fail(key, "true or false", v);
    return b ?? undefined;
  }

  integer(key: string, fallback: number, min: number, max: number): number {
    const v = this.get(key);
    if (v === undefined) return fallback;
    const n = this.adapter.integerOf(v);
    if (n !== null && n >= BigInt(min) && n <= BigInt(max)) return Number(n);
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
    const n = this.adapter.integerOf(v);
    const text = this.adapter.stringOf(v);
    const bytes = n !== null ? (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null) : text !== null ? parseByteSize(text) : null;
    if (bytes !== null && bytes >= min && bytes <= max) return bytes;
    this.fail(key, `${BYTE_SIZE_FORM}, from ${min} to ${max} bytes`, v);
    return undefined;
  }

  oneOf<T extends string>(key: string, values: readonly T[], fallback: T): T {
    const v = this.get(key);
    if (v === undefined) return fallback;
    const s = this.adapter.stringOf(v);
    if (s !== null && (values as readonly string[]).includes(s)) return s as T;
    this.fail(key, `one of ${values.map((x) => JSON.stringify(x)).join(", ")}`, v);
    return fallback;
  }

  /** A string that `check` accepts (it returns an error message otherwise). */
  string(key: string, fallback: string, check: (s: string) => string | null): string {
    const v = this.get(key);
    if (v === undefined) return fallback;
    const s = this.adapter.stringOf(v);
    if (s === null) {
      this.fail(key, "a string", v);
      return fallback;
    }
    const problem = check(s);
    if (problem === null) return s;
    this.errors.push(`${this.name(key)}: ${problem}`);
    return fallback;
  }

  /** As string, but undefined when the key is absent (or its value refused). */
  optionalString(key: string, check: (s: string) => string | null): string | undefined {
    if (this.get(key) === undefined) return undefined;
    const text = this.string(key, "", check);
    return text === "" ? undefined : text;
  }

  /** A sub-table (TOML `[key]` or an inline table, a JSON object); an empty one when absent. */
  table(key: string): ConfigReader<V> {
    const v = this.get(key);
    let sub: Readonly<Record<string, V>> = {};
    if (v !== undefined) {
      const table = this.adapter.tableOf(v);
      if (table !== null) sub = table;
      else this.fail(key, this.adapter.tableWord, v);
    }
    return new ConfigReader(sub, this.adapter, `${this.name(key)}.`, this.errors, `${this.path}${key}.`);
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
