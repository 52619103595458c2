// What BM25 indexes of a record: the "text fields" of its type, i.e. every field declared
// `String` or `[String]` (each element of an array is text too, e.g. tags). Other members —
// id, label, a vector's data, numbers, Dates, IDs, objects — are not text. A record's document
// is the terms of its text fields in declaration order; its length counts every term occurrence.
import type { NodeItem } from "../../core/items.js";
import type { FieldDescriptor, SchemaDescriptor, ValueType } from "../../core/schema.js";
import type { Tokenizer } from "./tokenizer.js";

function isText(t: ValueType): boolean {
  if (t.kind === "scalar") return t.name === "String";
  return t.kind === "array" && t.element.kind === "scalar" && t.element.name === "String";
}

export function textFields(fields: readonly FieldDescriptor[]): string[] {
  return fields.filter((f) => isText(f.type)).map((f) => f.name);
}

/** Text fields of every node and vector type that has any; types without text are absent. */
export function textFieldsByType(schema: SchemaDescriptor): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  for (const t of [...schema.nodes, ...(schema.vectors ?? [])]) {
    const fields = textFields(t.fields);
    if (fields.length > 0) out.set(t.name, fields);
  }
  return out;
}

export interface DocumentTerms {
  /** Number of term occurrences over all text fields. */
  length: number;
  /** Term → number of occurrences (tf). */
  tf: Map<string, number>;
}

export function documentTerms(record: NodeItem, fields: readonly string[], tokenize: Tokenizer): DocumentTerms {
  const tf = new Map<string, number>();
  const terms = documentTermList(record, fields, tokenize);
  for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + 1);
  return { length: terms.length, tf };
}

/** Every term occurrence of the record's text fields, in declaration order. */
export function documentTermList(record: NodeItem, fields: readonly string[], tokenize: Tokenizer): string[] {
  let terms: string[] | null = null;
  const add = (text: string): void => {
    const found = tokenize(text);
    if (terms === null) terms = found;
    else for (const term of found) terms.push(term);
  };
  for (const name of fields) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    if (typeof value === "string") add(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") add(v);
  }
  return terms ?? [];
}
