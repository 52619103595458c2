// The interchange format of strand import / export (README "Moving data in and out"): JSON Lines,
// one record per line, in wire form (the form clients receive, Dates as RFC 3339 text):
//   {"kind":"N","label":"User","id":"<uuid>",...fields}
//   {"kind":"V","label":"Doc","id":"<uuid>","data":[...],...fields}
//   {"kind":"E","label":"Follows","id":"<uuid>","from":"<uuid>","to":"<uuid>",...fields}
// The envelope members come first, then the fields in declaration order, so an export of the
// same records is the same bytes. A field whose name the envelope uses (a field `kind`; an edge's
// `from` or `to`) travels as `$kind`, `$from`, `$to`: HelixQL names cannot contain `$`.
import { setMember, type NodeItem, type PropValue, type Props } from "../../core/items.js";
import type { LoadRecord } from "../load/bulk-loader.js";

export type RecordKind = "N" | "E" | "V";

/** Members the format itself uses, per kind; a field of that name cannot travel in it. */
const ENVELOPE: Readonly<Record<RecordKind, readonly string[]>> = {
  N: ["kind", "label", "id"],
  V: ["kind", "label", "id", "data"],
  E: ["kind", "label", "id", "from", "to"],
};

/** The prefix of a field whose name the envelope uses. */
const ESCAPE = "$";

/**
 * Members of a stored record that are not fields, per kind: `data` is a vector's own member but
 * an ordinary field name for nodes and edges (an export once dropped such a field).
 */
const RECORD_MEMBERS: Readonly<Record<RecordKind, ReadonlySet<string>>> = {
  N: new Set(["id", "label"]),
  V: new Set(["id", "label", "data"]),
  E: new Set(["id", "label", "from_node", "to_node"]),
};

/** ENVELOPE as sets, for the per-member tests. */
const ENVELOPE_SETS: Readonly<Record<RecordKind, ReadonlySet<string>>> = {
  N: new Set(ENVELOPE.N),
  V: new Set(ENVELOPE.V),
  E: new Set(ENVELOPE.E),
};

/** JSON text of member names and labels, computed once per name (a schema has few). */
const jsonNames = new Map<string, string>();

function jsonName(name: string): string {
  let text = jsonNames.get(name);
  if (text === undefined) {
    text = JSON.stringify(name);
    if (jsonNames.size < 10_000) jsonNames.set(name, text);
  }
  return text;
}

const KIND_PREFIX: Readonly<Record<RecordKind, string>> = {
  N: '{"kind":"N","label":',
  V: '{"kind":"V","label":',
  E: '{"kind":"E","label":',
};

/**
 * The JSON line (without newline) of a stored record of the given kind. Written member by member
 * (the text JSON.stringify would give the object {kind, label, id, [from, to | data], ...fields}),
 * without building that object: an export spends its time here.
 */
export function recordLine(kind: RecordKind, rec: NodeItem): string {
  let line = `${KIND_PREFIX[kind]}${jsonName(rec.label)},"id":${JSON.stringify(rec.id)}`;
  if (kind === "E") line += `,"from":${JSON.stringify(rec.from_node)},"to":${JSON.stringify(rec.to_node)}`;
  if (kind === "V" && rec.data !== undefined) line += `,"data":${JSON.stringify(rec.data)}`;
  const envelope = ENVELOPE_SETS[kind];
  const members = RECORD_MEMBERS[kind];
  for (const key in rec) {
    if (members.has(key)) continue;
    const value = rec[key];
    if (value === undefined) continue;
    line += `,${jsonName(envelope.has(key) ? `${ESCAPE}${key}` : key)}:${JSON.stringify(value)}`;
  }
  return `${line}}`;
}

/** The start of the line of an edge of `label` without fields, up to its id's opening quote. */
export function bareEdgePrefix(label: string): string {
  return `${KIND_PREFIX.E}${jsonName(label)},"id":"`;
}

/**
 * recordLine("E", {id, label, from_node, to_node}) for an edge without fields, from its prefix
 * (bareEdgePrefix) and its ids as stored ids come (lower-case UUIDs: nothing to escape).
 */
export function bareEdgeLine(prefix: string, id: string, from: string, to: string): string {
  return `${prefix}${id}","from":"${from}","to":"${to}"}`;
}

/** The start of an edge line, up to its label's first character. */
const BARE_EDGE_START = '{"kind":"E","label":"';
export const BARE_EDGE_LABEL_AT = BARE_EDGE_START.length;
/** From a bare edge line's label end (its closing quote) to its id, from and to texts. */
export const BARE_EDGE_ID_AFTER_LABEL = '","id":"'.length;
export const BARE_EDGE_FROM_AFTER_ID = 36 + '","from":"'.length;
export const BARE_EDGE_TO_AFTER_FROM = 36 + '","to":"'.length;
const BARE_EDGE_REST = 36 + '"}'.length;

/**
 * Where the label of `text` ends when the line has the shape bareEdgeLine writes, an edge without
 * fields: `{"kind":"E","label":"<label>","id":"<36>","from":"<36>","to":"<36>"}`, with a label of
 * printable ASCII other than `"` and `\`; -1 for any other line. The ids are only placed here,
 * not checked: when all three are UUIDs (hex digits and dashes), JSON.parse of the line gives
 * exactly these members, so an import may read them from the text (RecordLoader.loadBareEdge).
 */
export function bareEdgeLabelEnd(text: string): number {
  if (!text.startsWith(BARE_EDGE_START)) return -1;
  let end = BARE_EDGE_LABEL_AT;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (c === 34 /* " */) break;
    if (c < 32 || c > 126 || c === 92 /* \ */) return -1;
  }
  if (end === BARE_EDGE_LABEL_AT) return -1;
  const idAt = end + BARE_EDGE_ID_AFTER_LABEL;
  const fromAt = idAt + BARE_EDGE_FROM_AFTER_ID;
  const toAt = fromAt + BARE_EDGE_TO_AFTER_FROM;
  if (text.length !== toAt + BARE_EDGE_REST) return -1;
  if (!text.startsWith('","id":"', end) || !text.startsWith('","from":"', idAt + 36) || !text.startsWith('","to":"', fromAt + 36))
    return -1;
  if (!text.endsWith('"}')) return -1;
  return end;
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

type MutableLoadRecord = { -readonly [K in keyof LoadRecord]: LoadRecord[K] };

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
  if (kind === undefined) throw new BadRecord("kind", `missing: each record says what it is, "N", "E" or "V"`);
  if (kind !== "N" && kind !== "E" && kind !== "V") throw new BadRecord("kind", `expected "N", "E" or "V", got ${JSON.stringify(kind)}`);
  const label = obj.label;
  if (typeof label !== "string" || label === "") throw new BadRecord("label", "expected the type's name");
  const envelope = ENVELOPE_SETS[kind];
  const props: Props = {};
  for (const key in obj) {
    if (envelope.has(key)) continue;
    const name = key.charCodeAt(0) === 36 /* ESCAPE */ && envelope.has(key.slice(1)) ? key.slice(1) : key;
    setMember(props, name, obj[key] as PropValue);
  }
  const record: MutableLoadRecord = { kind, label, props };
  const id = optionalString(obj, "id");
  if (id !== undefined) record.id = id;
  if (kind === "E") {
    const from = optionalString(obj, "from");
    if (from !== undefined) record.from = from;
    const to = optionalString(obj, "to");
    if (to !== undefined) record.to = to;
  }
  if (kind === "V" && obj.data !== undefined) record.data = obj.data;
  return record;
}

function optionalString(obj: Record<string, PropValue>, key: "id" | "from" | "to"): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new BadRecord(key, `expected a UUID string, got ${JSON.stringify(v)}`);
  return v;
}
