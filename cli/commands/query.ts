// `strand query <url> [text]`: one ad-hoc query against a running server (`POST /query`), for
// scripts and CI. The text is a whole QUERY, a body with a RETURN, or one expression; from the
// argument, else from stdin. The answer is printed as JSON; a query that does not compile prints
// each diagnostic with its line and a caret under the place (exit 1), as `strand check` does.
import { readFileSync } from "node:fs";

export interface QueryOptions {
  url: string;
  /** null: read from stdin */
  text: string | null;
  params: Record<string, unknown>;
  key: string | undefined;
  explain: boolean;
}

interface Diagnostic {
  code: string;
  severity: string;
  message: string;
  line: number;
  column: number;
  hint?: string;
}

export async function runQuery(options: QueryOptions): Promise<number> {
  const text = options.text ?? readFileSync(0, "utf8");
  if (text.trim() === "") {
    process.stderr.write("strand: no query: give it as an argument or on stdin\n");
    return 2;
  }
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  let res: Response;
  try {
    res = await fetch(`${options.url.replace(/\/+$/, "")}/query`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: text, params: options.params, ...(options.explain ? { explain: true } : {}) }),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    process.stderr.write(`strand: cannot reach ${options.url}: ${cause}\n`);
    return 1;
  }
  const body = (await res.json().catch(() => null)) as { error?: string; code?: string; diagnostics?: Diagnostic[] } | null;
  if (res.ok) {
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  if (body?.code === "INVALID_QUERY" && Array.isArray(body.diagnostics)) {
    process.stderr.write(`${body.diagnostics.map((d) => formatDiagnostic(d, text)).join("\n\n")}\n`);
    return 1;
  }
  process.stderr.write(`strand: ${res.status} ${body?.code ?? ""}: ${body?.error ?? "the server answered without a JSON error"}\n`);
  return 1;
}

/** `query:1:14: error E120: message`, the line, a caret under the column, and the hint. */
function formatDiagnostic(d: Diagnostic, text: string): string {
  const line = text.split("\n")[d.line - 1] ?? "";
  const lines = [
    `query:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`,
    `  ${line}`,
    `  ${" ".repeat(Math.max(0, d.column - 1))}^`,
  ];
  if (d.hint !== undefined) lines.push(`  hint: ${d.hint}`);
  return lines.join("\n");
}
