// An answer as tables: one per member of the answer object (a query's RETURN names; a bare
// expression's `result`), each with rows and columns in first-seen order. Records from a search
// (a `score` or `distance` member) put that column and a text field first. Sorting and pages are
// here too, so the view only draws. Pure: no DOM.

export const PAGE_SIZE = 50;

export type Row = Record<string, unknown>;

export interface Table {
  /** The answer's member, e.g. `users`. */
  name: string;
  columns: string[];
  rows: Row[];
}

/** Field names preferred as a search result's text, before any other string field. */
const TEXT_FIELDS = ["text", "content", "body", "fact", "summary", "title", "name", "description"];
const IDENTITY = new Set(["id", "label", "from_node", "to_node"]);

export function tablesOf(answer: unknown): Table[] {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return [tableOf("result", answer)];
  return Object.entries(answer as Record<string, unknown>).map(([name, value]) => tableOf(name, value));
}

export function tableOf(name: string, value: unknown): Table {
  const list = Array.isArray(value) ? value : [value];
  const rows: Row[] = list.map((v) => (isRecord(v) ? v : { value: v }));
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const score = ["score", "distance"].find((c) => seen.has(c));
  if (score === undefined) return { name, columns, rows };
  const text = textField(columns, rows);
  const first = text === null ? [score] : [score, text];
  return { name, columns: [...first, ...columns.filter((c) => !first.includes(c))], rows };
}

/** The column that reads as a record's text: a preferred name, else the first string column that is no id or time. */
function textField(columns: readonly string[], rows: readonly Row[]): string | null {
  const strings = columns.filter(
    (c) => !IDENTITY.has(c) && rows.some((r) => typeof r[c] === "string" && !/^\d{4}-\d\d-\d\dT/.test(r[c] as string)),
  );
  return TEXT_FIELDS.find((f) => strings.includes(f)) ?? strings[0] ?? null;
}

function isRecord(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export type Direction = "asc" | "desc";

/** A stable sort by one column: numbers by value, the rest by their text; absent values last. */
export function sortRows(rows: readonly Row[], column: string, direction: Direction): Row[] {
  const sign = direction === "asc" ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[column];
      const y = b.row[column];
      if (x === undefined || y === undefined) return x === y ? a.index - b.index : x === undefined ? 1 : -1;
      const order =
        typeof x === "number" && typeof y === "number"
          ? x - y
          : cellText(column, x).localeCompare(cellText(column, y), undefined, { numeric: true });
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map((e) => e.row);
}

export function pageOf<T>(rows: readonly T[], page: number, size = PAGE_SIZE): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(0, page), pages - 1);
  return { rows: rows.slice(p * size, (p + 1) * size), page: p, pages };
}

/** A cell's text: scores to 4 decimals, long arrays (embeddings) shortened, objects as JSON. */
export function cellText(column: string, value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "number" && (column === "score" || column === "distance") && !Number.isInteger(value)) return value.toFixed(4);
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length > 8 && value.every((x) => typeof x === "number")) {
    return `[${value.slice(0, 3).join(", ")}, … ${value.length} numbers]`;
  }
  return JSON.stringify(value);
}
