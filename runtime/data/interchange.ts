// The interchange format of strand import / export (README "Moving data in and out"): JSON Lines,
// one record per line, in wire form (the form clients receive, Dates as RFC 3339 text):
//   {"kind":"N","label":"User","id":"<uuid>",...fields}
//   {"kind":"V","label":"Doc","id":"<uuid>","data":[...],...fields}
//   {"kind":"E","label":"Follows","id":"<uuid>","from":"<uuid>","to":"<uuid>",...fields}
// The envelope members come first, then the fields in declaration order, so an export of the
// same records is the same bytes. A field whose name the envelope uses (a field `kind`; an edge's
// `from` or `to`) travels as `$kind`, `$from`, `$to`: HelixQL names cannot contain `$`.
import { setMember, type NodeItem, type PropValue, type Props } from "../../core/items.js";
import type { LoadRecord } from "../write/bulk-loader.js";

export type RecordKind = "N" | "E" | "V";

/** Members the format itself uses, per kind; a field of that name cannot travel in it. */
const ENVELOPE: Readonly<Record<RecordKind, readonly string[]>> = {
  N: ["kind", "label", "id"],
  V: ["kind", "label", "id", "data"],
  E: ["kind", "label", "id", "from", "to"],
};

/** The prefix of a field whose name the envelope uses. */
const ESCAPE = "$";

/** Members of a stored record that are not fields. */
const RECORD_MEMBERS = new Set(["id", "label", "from_node", "to_node", "data"]);

/** The JSON line (without newline) of a stored record of the given kind. */
export function recordLine(kind: RecordKind, rec: NodeItem): string {
  const out: Record<string, PropValue> = { kind, label: rec.label, id: rec.id };
  if (kind === "E") {
    out.from = rec.from_node as string;
    out.to = rec.to_node as string;
  }
  if (kind === "V" && rec.data !== undefined) out.data = rec.data;
  for (const key in rec) {
    if (RECORD_MEMBERS.has(key)) continue;
    if (ENVELOPE[kind].includes(key)) {
      out[`${ESCAPE}${key}`] = rec[key] as PropValue;
      continue;
    }
    setMember(out, key, rec[key] as PropValue);
  }
  return JSON.stringify(out);
}

/** A bad line: `field` names the member at fault (or "line" for the line as a whole). */
export class BadRecord extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** One JSON line as a record to load; throws BadRecord. */
export function parseRecordLine(text: string): LoadRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRecord("line", `not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new BadRecord("line", "expected a JSON object");
  const obj = value as Record<string, PropValue>;
  const kind = obj.kind;
  if (kind !== "N" && kind !== "E" && kind !== "V")
    throw new BadRecord("kind", `expected "N", "E" or "V", got ${JSON.stringify(kind ?? null)}`);
  const label = obj.label;
  if (typeof label !== "string" || label === "") throw new BadRecord("label", "expected the type's name");
  const props: Props = {};
  for (const key in obj) {
    if (ENVELOPE[kind].includes(key)) continue;
    const name = key.startsWith(ESCAPE) && ENVELOPE[kind].includes(key.slice(1)) ? key.slice(1) : key;
    setMember(props, name, obj[key] as PropValue);
  }
  return {
    kind,
    label,
    ...optionalString(obj, "id"),
    ...(kind === "E" ? { ...optionalString(obj, "from"), ...optionalString(obj, "to") } : {}),
    ...(kind === "V" && obj.data !== undefined ? { data: obj.data } : {}),
    props,
  };
}

function optionalString(obj: Record<string, PropValue>, key: "id" | "from" | "to"): { [k: string]: string } {
  const v = obj[key];
  if (v === undefined || v === null) return {};
  if (typeof v !== "string") throw new BadRecord(key, `expected a UUID string, got ${JSON.stringify(v)}`);
  return { [key]: v };
}
