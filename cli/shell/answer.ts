// How a failed answer reads, in the shell and in `strand query`: a query that does not compile as
// each diagnostic with its line and a caret under the place (as `strand check` prints them), any
// other refusal as its status, code and message.
import type { Reply } from "./endpoint.js";

export interface WireDiagnostic {
  code: string;
  severity: string;
  message: string;
  line: number;
  column: number;
  hint?: string;
}

/** `query:1:14: error E120: message`, the line, a caret under the column, and the hint. */
export function formatDiagnostic(d: WireDiagnostic, text: string): string {
  const line = text.split("\n")[d.line - 1] ?? "";
  const lines = [
    `query:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`,
    `  ${line}`,
    `  ${" ".repeat(Math.max(0, d.column - 1))}^`,
  ];
  if (d.hint !== undefined) lines.push(`  hint: ${d.hint}`);
  return lines.join("\n");
}

/** Whether the reply is a success (2xx). */
export function succeeded(reply: Reply): reply is { reached: true; status: number; body: unknown } {
  return reply.reached && reply.status >= 200 && reply.status < 300;
}

/** The error code of a refusal, if its body has one. */
export function errorCode(reply: Reply): string | undefined {
  if (!reply.reached) return undefined;
  const code = (reply.body as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/** The text (ending in a newline) that says why `reply` is no answer to `text`. */
export function failureText(reply: Reply, text: string): string {
  if (!reply.reached) return `strand: ${reply.problem}\n`;
  const body = reply.body as { error?: unknown; code?: unknown; diagnostics?: unknown } | null;
  if (body?.code === "INVALID_QUERY" && Array.isArray(body.diagnostics)) {
    return `${(body.diagnostics as WireDiagnostic[]).map((d) => formatDiagnostic(d, text)).join("\n\n")}\n`;
  }
  const code = typeof body?.code === "string" ? body.code : "";
  const error = typeof body?.error === "string" ? body.error : "the server answered without a JSON error";
  return `strand: ${reply.status} ${code}: ${error}\n`;
}
