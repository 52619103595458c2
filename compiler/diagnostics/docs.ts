// The list of diagnostic codes in docs/ARCHITECTURE.md, rendered from the table: the docs say
// exactly what table.ts says. `npm run docs` rewrites the marked section;
// test/diagnostics-table.test.ts fails when it is stale.
import { DIAGNOSTICS, DIAGNOSTIC_CODES } from "./table.js";

export const DOCS_BEGIN = "<!-- diagnostics:begin -->";
export const DOCS_END = "<!-- diagnostics:end -->";

/** One line per code: `- **E101** error: `message` — doc`. */
export function renderDiagnosticList(): string {
  return DIAGNOSTIC_CODES.map((code) => {
    const entry: { severity: string; message: string; doc: string; internal?: true } = DIAGNOSTICS[code];
    const internal = entry.internal === true ? " (Reports a bug in Strand: no input should produce it.)" : "";
    return `- **${code}** ${entry.severity}: \`${entry.message}\` — ${entry.doc}${internal}`;
  }).join("\n");
}

/**
 * `document` with the text between the markers replaced by the rendered list; null when the
 * markers are missing or out of order.
 */
export function withDiagnosticList(document: string): string | null {
  const begin = document.indexOf(DOCS_BEGIN);
  const end = document.indexOf(DOCS_END);
  if (begin === -1 || end < begin) return null;
  return `${document.slice(0, begin + DOCS_BEGIN.length)}\n${renderDiagnosticList()}\n${document.slice(end)}`;
}
