// Validation and normalisation of one value against a schema ValueType. Used for query parameters
// and for every property written to the store, so what is stored is always in canonical form:
// ID lower-cased, Date as `Date.toISOString()` (so Dates sort and compare as strings), objects
// rebuilt in declared field order. So reads never re-validate. Integer ranges come from
// scalars.ts, F32 limits from numeric.ts; a Date is accepted as RFC 3339 with offset (any
// fraction, truncated to ms), `YYYY-MM-DD` (midnight UTC) or integer unix seconds, within years
// 0000-9999 UTC, and the compiler reads Date literals with the same function (dateMillis).
// describeValue renders an offending value for a message, bounded whatever its size or depth.
import { ECHO_LIMIT, echo } from "./echo.js";
import { setMember } from "./items.js";
import type { JsonValue, ValueType } from "./schema.js";
import { BEYOND_F64, F32_MAX_TEXT, fitsF32 } from "./numeric.js";
import { integerRange } from "./scalars.js";

export type CheckResult = { ok: true; value: JsonValue } | { ok: false; message: string };

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// RFC 3339 date-time; the offset is mandatory (a local time would be ambiguous).
const DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const DATE_ONLY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// The canonical form, Date.prototype.toISOString() of a 4-digit year.
const CANONICAL_DATE_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Instants whose RFC 3339 form has a four-digit year: 0000-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z
// (toISOString() would write other years as +275760 or -000001, which RFC 3339 has no room for).
const MIN_DATE_MS = -62167219200000;
export const MAX_DATE_MS = 253402300799999;

/**
 * A short rendering of the offending value for messages: its JSON, cut to ECHO_LIMIT characters
 * (core/echo.ts). Total and bounded: it never throws, and however large or deeply nested the
 * value, it looks at no more of it than the first ECHO_LIMIT characters of its JSON need (so an
 * array nested 20,000 deep cannot overflow the stack, and a 1 MB string is not copied).
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON.parse turns a number beyond the F64 range (1e999) into ±Infinity: not "null".
  if (typeof value === "number" && !Number.isFinite(value)) return Number.isNaN(value) ? "NaN" : BEYOND_F64;
  const out: Rendering = { text: "" };
  render(value, out);
  return echo(out.text);
}

interface Rendering {
  text: string;
}

/** Appends `value` as JSON (what JSON.stringify writes) to `out`, stopping past ECHO_LIMIT characters. */
function render(value: unknown, out: Rendering): void {
  if (out.text.length > ECHO_LIMIT) return;
  switch (typeof value) {
    case "string":
      out.text += JSON.stringify(value.length > ECHO_LIMIT ? value.slice(0, ECHO_LIMIT + 1) : value);
      return;
    case "number":
      // ±Infinity inside an array or object (a number beyond the F64 range in JSON) is not null.
      out.text += Number.isNaN(value) ? "null" : String(value);
      return;
    case "boolean":
    case "bigint":
    case "symbol":
      out.text += String(value);
      return;
    case "undefined":
    case "function":
      out.text += "null";
      return;
  }
  if (value === null) {
    out.text += "null";
  } else if (value instanceof Date) {
    out.text += Number.isFinite(value.getTime()) ? JSON.stringify(value.toISOString()) : "null";
  } else if (Array.isArray(value)) {
    out.text += "[";
    for (let i = 0; i < value.length && out.text.length <= ECHO_LIMIT; i++) {
      if (i > 0) out.text += ",";
      render(value[i], out);
    }
    out.text += "]";
  } else {
    out.text += "{";
    let first = true;
    for (const key in value) {
      if (out.text.length > ECHO_LIMIT) break;
      if (!Object.hasOwn(value, key)) continue;
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
      out.text += `${(first ? "" : ",") + JSON.stringify(key.length > ECHO_LIMIT ? key.slice(0, ECHO_LIMIT + 1) : key)}:`;
      first = false;
      render(member, out);
    }
    out.text += "}";
  }
}

/** "an integer between 0 and 255 (U8)", "an array of strings (String)", ... */
export function describeType(type: ValueType): string {
  switch (type.kind) {
    case "scalar": {
      const range = integerRange(type.name);
      if (range) return `an integer between ${range.min} and ${range.max} (${type.name})`;
      switch (type.name) {
        case "F32":
          return `a finite number of magnitude at most ${F32_MAX_TEXT} (F32)`;
        case "F64":
          return "a finite number (F64)";
        case "Boolean":
          return "a boolean (Boolean)";
        case "String":
          return "a string (String)";
        case "ID":
          return "a UUID string (ID)";
        case "Date":
          return "a date: an RFC 3339 string with offset, YYYY-MM-DD, or integer unix seconds (Date)";
      }
      return type.name;
    }
    case "array":
      return `an array of ${typeName(type.element)}`;
    case "object":
      return `an object {${type.fields.map((f) => f.name + (f.optional ? "?" : "")).join(", ")}}`;
  }
}

function typeName(type: ValueType): string {
  switch (type.kind) {
    case "scalar":
      return type.name;
    case "array":
      return `[${typeName(type.element)}]`;
    case "object":
      return "object";
  }
}

function fail(type: ValueType, value: unknown, path: string): CheckResult {
  return { ok: false, message: `'${path}' must be ${describeType(type)}, got ${describeValue(value)}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function validDayOfMonth(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0); // proleptic Gregorian, as RFC 3339
  const days = m === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  return d <= days;
}

/**
 * The instant a Date input denotes, in ms since the epoch: an RFC 3339 date-time with offset
 * (fractional seconds beyond milliseconds are truncated), YYYY-MM-DD (midnight UTC), or integer
 * unix seconds. undefined when the value is none of these, or when the instant falls outside
 * years 0000-9999 (UTC), the range the canonical RFC 3339 form can express.
 */
export function dateMillis(value: unknown): number | undefined {
  let ms: number;
  if (typeof value === "number") {
    if (!Number.isInteger(value)) return undefined;
    ms = value * 1000;
  } else if (typeof value === "string") {
    let m = DATE_ONLY_RE.exec(value);
    if (m) {
      const y = +m[1]!;
      const mo = +m[2]!;
      const d = +m[3]!;
      if (!validDayOfMonth(y, mo, d)) return undefined;
      // Not Date.UTC(y, ..): it reads years 0 to 99 as 1900 to 1999.
      const day = new Date(Date.UTC(2000, mo - 1, d));
      ms = day.setUTCFullYear(y);
    } else {
      m = DATE_TIME_RE.exec(value);
      if (!m) return undefined;
      const y = +m[1]!;
      const mo = +m[2]!;
      const d = +m[3]!;
      const h = +m[4]!;
      const mi = +m[5]!;
      const s = m[6] === undefined ? 0 : +m[6];
      if (!validDayOfMonth(y, mo, d) || h > 23 || mi > 59 || s > 60) return undefined;
      ms = Date.parse(value.replace(" ", "T"));
    }
  } else {
    return undefined;
  }
  if (!Number.isFinite(ms) || ms < MIN_DATE_MS || ms > MAX_DATE_MS) return undefined;
  return ms;
}

/** Whether `value` is already a Date in canonical form (what checkValue returns for it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A String with each lone surrogate (which JSON can carry but UTF-8 cannot) replaced by U+FFFD,
 * as storing it would: so the stored record, its index key and a compared value all agree.
 */
function wellFormed(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return s.replace(LONE_SURROGATE, "\ufffd");
  }
  return s;
}

/** Could be a Date (YYYY-MM-DD...): a cheap test before parsing (comparisons of two such strings may be by instant). */
export function dateShaped(s: string): boolean {
  return s.length >= 10 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45;
}

export function isCanonicalDate(value: string): boolean {
  return value.length === 24 && CANONICAL_DATE_RE.test(value);
}

function checkDate(type: ValueType, value: unknown, path: string): CheckResult {
  const ms = dateMillis(value);
  return ms === undefined ? fail(type, value, path) : { ok: true, value: new Date(ms).toISOString() };
}

function checkScalar(type: ValueType & { kind: "scalar" }, value: unknown, path: string): CheckResult {
  const name = type.name;
  const range = integerRange(name);
  if (range) {
    if (typeof value === "number" && Number.isFinite(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER) {
      // JSON.parse has already rounded it (1732406400123456789 arrives as ...800): echoing those
      // digits would name a number the client never sent.
      return {
        ok: false,
        message: `'${path}' must be ${describeType(type)}, got a number beyond ±${Number.MAX_SAFE_INTEGER}, the largest integer Strand stores exactly`,
      };
    }
    if (typeof value !== "number" || !Number.isInteger(value)) return fail(type, value, path);
    if (value < range.min || value > range.max) return fail(type, value, path);
    return { ok: true, value: value === 0 ? 0 : value }; // normalise -0
  }
  switch (name) {
    // -0 is stored as 0: JSON sends both as 0, they compare equal, and index keys need one form.
    case "F32":
      return typeof value === "number" && fitsF32(value) ? { ok: true, value: value === 0 ? 0 : value } : fail(type, value, path);
    case "F64":
      return typeof value === "number" && Number.isFinite(value) ? { ok: true, value: value === 0 ? 0 : value } : fail(type, value, path);
    case "Boolean":
      return typeof value === "boolean" ? { ok: true, value } : fail(type, value, path);
    case "String":
      return typeof value === "string" ? { ok: true, value: wellFormed(value) } : fail(type, value, path);
    case "ID":
      return typeof value === "string" && UUID_RE.test(value) ? { ok: true, value: value.toLowerCase() } : fail(type, value, path);
    case "Date":
      return checkDate(type, value, path);
  }
  return fail(type, value, path);
}

/**
 * Validates `value` against `type` and returns its canonical form. `path` names the value in
 * messages ("age", "address.city", "tags[2]"); callers prefix it ("parameter 'age' must be ...").
 * Absent optional object members are left out; a null optional member counts as absent.
 */
export function checkValue(type: ValueType, value: unknown, path: string): CheckResult {
  switch (type.kind) {
    case "scalar":
      return checkScalar(type, value, path);
    case "array": {
      if (!Array.isArray(value)) return fail(type, value, path);
      const out: JsonValue[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        const r = checkValue(type.element, value[i], `${path}[${i}]`);
        if (!r.ok) return r;
        out[i] = r.value;
      }
      return { ok: true, value: out };
    }
    case "object": {
      if (!isPlainObject(value)) return fail(type, value, path);
      for (const key of Object.keys(value)) {
        if (!type.fields.some((f) => f.name === key)) {
          return {
            ok: false,
            message: `'${path}' has unknown member '${echo(key)}'; expected ${describeType(type)}`,
          };
        }
      }
      const out: { [key: string]: JsonValue } = {};
      for (const field of type.fields) {
        const member = value[field.name];
        const memberPath = `${path}.${field.name}`;
        if (member === undefined || member === null) {
          if (field.optional) continue;
          return { ok: false, message: `'${memberPath}' is required: must be ${describeType(field.type)}` };
        }
        const r = checkValue(field.type, member, memberPath);
        if (!r.ok) return r;
        setMember(out, field.name, r.value);
      }
      return { ok: true, value: out };
    }
  }
}
