// How the fields of the tools' inputs read in errors. Each field of the input schemas
// (input-schemas.ts) carries its words beside its zod schema, so one description gives both the
// JSON Schema of tools/list and the message of a refused call (input-parse.ts):
//
//   missing '<path>' (<what>)                   MISSING_PARAMETER
//   '<path>' must be <expected>, got <value>    INVALID_PARAMETER
import * as z from "zod/v4";

export interface FieldWords {
  /** What the field holds, when it is missing; default: the schema's description. */
  readonly what?: string | undefined;
  /** What it must be, when it is wrong (by the issue where that depends on what failed); default: `what`. */
  readonly expected?: string | ((issue: z.core.$ZodIssue) => string) | undefined;
  /** Throws the refusal of a wrong value itself, where a check shared with the queries words it (vectors). */
  readonly check?: ((value: unknown, path: string) => void) | undefined;
}

const FIELD_WORDS = new WeakMap<z.ZodType, FieldWords>();

/** `schema`, with its words: a schema made from it (describe, refine) is another schema, without them. */
export function worded<S extends z.ZodType>(schema: S, words: FieldWords): S {
  FIELD_WORDS.set(schema, words);
  return schema;
}

/** The words of `schema`, or of the schema it wraps (optional, nullable, lazy). */
export function wordsOf(schema: z.ZodType | undefined): FieldWords | undefined {
  for (let s = schema; s !== undefined; s = unwrapped(s)) {
    const words = FIELD_WORDS.get(s);
    if (words !== undefined) return words;
  }
  return undefined;
}

/** The schema inside an optional, nullable or lazy one; undefined for any other. */
export function unwrapped(schema: z.ZodType): z.ZodType | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodLazy) {
    return schema.unwrap() as z.ZodType;
  }
  return undefined;
}

/** A strict object (unknown members are refused by name); missing, it reads `({a, b?})`. */
export function members<S extends z.ZodRawShape>(shape: S, what?: string): z.ZodObject<S, z.core.$strict> {
  const outline = Object.keys(shape).map((key) => (shape[key] instanceof z.ZodOptional ? `${key}?` : key));
  return worded(z.strictObject(shape), { what: what ?? `{${outline.join(", ")}}`, expected: "an object" });
}

/** A non-empty string: `what` describes it, and reads `a non-empty string (<what>)` when wrong. */
export function nonEmpty(what: string): z.ZodString {
  return worded(z.string().min(1).describe(what), { expected: `a non-empty string (${what})` });
}

/** A safe integer of at least `min`. */
export function integer(min: number, what?: string): z.ZodNumber {
  const schema = z.number().int().min(min);
  return worded(what === undefined ? schema : schema.describe(what), { expected: `an integer >= ${min}` });
}
