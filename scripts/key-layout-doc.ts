// The on-disk key layout table of docs/ARCHITECTURE.md, rendered from runtime/store/key-layout.ts:
// `npm run docs` rewrites the marked section; test/docs.test.ts fails when it is stale.
import { KEY_LAYOUT } from "../runtime/store/key-layout.js";

export const KEY_LAYOUT_BEGIN = "<!-- key-layout:begin -->";
export const KEY_LAYOUT_END = "<!-- key-layout:end -->";

/** A Markdown table, one row per (database, key shape); a database is named on its first row. */
export function renderKeyLayout(): string {
  const cell = (s: string): string => s.replace(/\|/g, "\\|");
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(" | ")} |`;
  const rows = KEY_LAYOUT.map((row, i) => line([i > 0 && KEY_LAYOUT[i - 1]!.db === row.db ? "" : `\`${row.db}\``, row.key, row.value]));
  return [line(["database", "key", "value"]), line(["---", "---", "---"]), ...rows].join("\n");
}

/** `document` with the marked section replaced by the rendered table; null when the markers are missing. */
export function withKeyLayout(document: string): string | null {
  const begin = document.indexOf(KEY_LAYOUT_BEGIN);
  const end = document.indexOf(KEY_LAYOUT_END);
  if (begin === -1 || end < begin) return null;
  return `${document.slice(0, begin + KEY_LAYOUT_BEGIN.length)}\n${renderKeyLayout()}\n${document.slice(end)}`;
}
