// CSV files of one node, vector or edge type (the shape Neo4j's and Kuzu's importers take): the
// header names the columns, `id` (optional), `from` and `to` (edges), `data` (vectors, as a JSON
// array) and the type's fields (a field named like one of those columns as `$name`). Cells are typed by the schema: numbers for numeric fields,
// `true`/`false` for Boolean, the text itself for String, ID and Date (a Date also as integer unix
// seconds, as in JSON Lines), JSON for array and object
// fields. An empty unquoted cell is "no value" (the field is absent); `""` is the empty string.
import type { Props } from "../../core/items.js";
import type { ValueType } from "../../core/schema.js";
import { SCALARS } from "../../core/scalars.js";
import type { SchemaInfo, TypeInfo } from "../store/schema-info.js";
import type { LoadRecord } from "../load/bulk-loader.js";
import type { CsvRow } from "./csv.js";
import { BadRecord, type RecordKind } from "./interchange.js";

export interface CsvType {
  readonly kind: RecordKind;
  readonly info: TypeInfo;
}

/** The type named `label` (a node, vector or edge type), or why there is none. */
export function csvType(schema: SchemaInfo, label: string): CsvType | string {
  const node = schema.nodes.get(label);
  if (node !== undefined) return { kind: "N", info: node };
  const vector = schema.vectors.get(label);
  if (vector !== undefined) return { kind: "V", info: vector };
  const edge = schema.edges.get(label);
  if (edge !== undefined) return { kind: "E", info: edge };
  return `the schema has no type '${label}' (name it with --type, or name the file <Type>.csv)`;
}

/** Columns that are not fields, per kind. */
function specialColumns(kind: RecordKind): readonly string[] {
  return kind === "E" ? ["id", "from", "to"] : kind === "V" ? ["id", "data"] : ["id"];
}

/**
 * The field a column `$name` holds: a field whose name is one of the kind's special columns
 * travels as `$name`, as in JSON Lines (interchange.ts); null for any other column.
 */
function escapedField(type: CsvType, column: string): string | null {
  if (!column.startsWith("$")) return null;
  const name = column.slice(1);
  return specialColumns(type.kind).includes(name) && type.info.fieldByName.has(name) ? name : null;
}

/** Checks the header against the type; returns why it does not fit, or null. */
export function csvHeaderProblem(type: CsvType, header: readonly string[]): string | null {
  const special = specialColumns(type.kind);
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) return `column '${name}' appears twice`;
    seen.add(name);
    if (!special.includes(name) && !type.info.fieldByName.has(name) && escapedField(type, name) === null) {
      return `column '${name}' is not a field of ${type.kind}::${type.info.name} (fields: ${type.info.fieldList}; also ${special.join(", ")})`;
    }
  }
  if (type.kind === "E" && (!seen.has("from") || !seen.has("to"))) return "an edge file needs 'from' and 'to' columns";
  return null;
}

/** One data row as a record to load; throws BadRecord naming the column. */
export function csvRecord(type: CsvType, header: readonly string[], row: CsvRow): LoadRecord {
  if (row.cells.length !== header.length) {
    throw new BadRecord("line", `${row.cells.length} cells, but the header has ${header.length} columns`);
  }
  const props: Props = {};
  let id: string | undefined;
  let from: string | undefined;
  let to: string | undefined;
  let data: unknown;
  for (let i = 0; i < header.length; i++) {
    const name = header[i]!;
    const cell = row.cells[i]!;
    if (cell === "" && !row.quoted[i]) continue; // no value
    if (name === "id") id = cell;
    else if (name === "from" && type.kind === "E") from = cell;
    else if (name === "to" && type.kind === "E") to = cell;
    else if (name === "data" && type.kind === "V") data = parseJson(name, cell);
    else {
      const field = escapedField(type, name) ?? name;
      props[field] = typedCell(name, type.info.fieldByName.get(field)!.descriptor.type, cell);
    }
  }
  return {
    kind: type.kind,
    label: type.info.name,
    ...(id !== undefined ? { id } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(data !== undefined ? { data } : {}),
    props,
  };
}

/**
 * A decimal number as JSON writes it (an optional + allowed): not Number()'s other forms, which
 * took "0x10" as 16, "0b101" as 5 and " " as 0 without a word.
 */
const DECIMAL = /^[+-]?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Integer unix seconds, the one numeric form of a Date (core/values.ts). */
const UNIX_SECONDS = /^-?\d+$/;

function typedCell(name: string, type: ValueType, cell: string): Props[string] {
  if (type.kind !== "scalar") return parseJson(name, cell) as Props[string];
  if (SCALARS[type.name].numeric) {
    const text = cell.trim();
    if (!DECIMAL.test(text)) throw new BadRecord(name, `expected a decimal number (${type.name}), got ${JSON.stringify(cell)}`);
    return Number(text);
  }
  if (type.name === "Date" && UNIX_SECONDS.test(cell)) return Number(cell);
  if (type.name === "Boolean") {
    if (cell === "true") return true;
    if (cell === "false") return false;
    throw new BadRecord(name, `expected true or false, got ${JSON.stringify(cell)}`);
  }
  return cell;
}

function parseJson(name: string, cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    throw new BadRecord(name, `expected JSON, got ${JSON.stringify(cell.length > 40 ? `${cell.slice(0, 40)}…` : cell)}`);
  }
}
