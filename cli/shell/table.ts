// Rows as a text table, psql's way: a header, a rule, one line per row, and the count. The columns
// are the rows' keys in the order they first appear; a value wider than `maxWidth` is cut with …
// (the whole value is one `:json` away); numbers are right-aligned; nested values are compact JSON.

/** The widest a cell is shown, in characters. */
export const MAX_CELL_WIDTH = 40;

/** Column name for the rows that are not objects (an array of strings, say). */
const VALUE_COLUMN = "value";

export function renderTable(rows: readonly unknown[], maxWidth = MAX_CELL_WIDTH): string {
  const columns: string[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    columns.push(name);
  };
  for (const row of rows) {
    if (isRecord(row)) for (const key of Object.keys(row)) add(key);
    else add(VALUE_COLUMN);
  }
  const cells = rows.map((row) =>
    columns.map((column) => {
      const value = isRecord(row) ? row[column] : column === VALUE_COLUMN ? row : undefined;
      return { text: cut(cellText(value), maxWidth), right: typeof value === "number" || typeof value === "bigint" };
    }),
  );
  const headers = columns.map((column) => cut(column, maxWidth));
  const widths = headers.map((header, i) => Math.max(width(header), ...cells.map((row) => width(row[i]!.text))));
  const line = (texts: { text: string; right: boolean }[]): string =>
    texts
      .map(({ text, right }, i) => ` ${right ? pad(text, widths[i]!, true) : pad(text, widths[i]!, false)} `)
      .join("|")
      .trimEnd();
  const out: string[] = [];
  if (columns.length > 0) {
    out.push(line(headers.map((text) => ({ text, right: false }))));
    out.push(widths.map((w) => "-".repeat(w + 2)).join("+"));
    for (const row of cells) out.push(line(row));
  }
  out.push(`(${rows.length} ${rows.length === 1 ? "row" : "rows"})`);
  return `${out.join("\n")}\n`;
}

/** A value as one line of a cell: strings bare, absent members empty, the rest as JSON. */
export function cellText(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : typeof value === "bigint" ? value.toString() : JSON.stringify(value);
  // One row per line: control characters (a newline in a string) are shown escaped, as in JSON.
  let out = "";
  for (const c of text) out += c < " " ? JSON.stringify(c).slice(1, -1) : c === "\u007f" ? "\\u007f" : c;
  return out;
}

/** `text` at most `max` characters wide, cut with … when longer. */
export function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join("")}…`;
}

function width(text: string): number {
  return [...text].length;
}

function pad(text: string, to: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, to - width(text)));
  return right ? fill + text : text + fill;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
