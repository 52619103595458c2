// The editor's diagnostics: the list under it (one line each: code, line:column, message and the
// hint) and the as-you-type check that fills it. The check asks the server to compile the text
// without running it (`POST /query` with "explain"), a moment after the last keystroke, and
// keeps only the answer to the newest text.
import { ApiError, adHocQuery } from "../api.js";
import type { Diagnostic } from "./spans.js";

/** The text of one diagnostic in the list; a problem with no place (bad parameters) has no line:column. */
export function diagnosticText(d: Diagnostic): string {
  const at = d.line >= 1 ? ` ${d.line}:${d.column}` : "";
  return `${d.code}${at} ${d.message}${d.hint === undefined ? "" : ` (${d.hint})`}`;
}

export function renderDiagnostics(list: HTMLElement, diagnostics: readonly Diagnostic[], pick: (d: Diagnostic) => void): void {
  list.replaceChildren(
    ...diagnostics.map((d) => {
      const li = document.createElement("li");
      li.className = d.severity === "error" ? "error" : "warning";
      li.textContent = diagnosticText(d);
      if (d.line >= 1) li.onclick = () => pick(d);
      return li;
    }),
  );
}

/** The parameters box as an object, or the diagnostic that says why not. */
export function parseParams(text: string): { ok: true; params: Record<string, unknown> } | { ok: false; diagnostic: Diagnostic } {
  const bad = (message: string): { ok: false; diagnostic: Diagnostic } => ({
    ok: false,
    diagnostic: { code: "PARAMS", severity: "error", message, line: 0, column: 0 },
  });
  if (text.trim() === "") return { ok: true, params: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return bad(`the parameters are not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return bad('the parameters must be a JSON object, e.g. {"city": "London"}');
  return { ok: true, params: value as Record<string, unknown> };
}

export type CheckResult =
  | { state: "empty" }
  | { state: "ok"; writes: boolean }
  | { state: "invalid"; diagnostics: readonly Diagnostic[] }
  | { state: "failed"; error: unknown };

export class Checker {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private latest = 0;

  constructor(
    private readonly report: (result: CheckResult) => void,
    private readonly delayMs = 300,
  ) {}

  /** Checks the text a moment from now, unless asked again before. */
  schedule(text: string, paramsText: string): void {
    if (this.timer !== null) clearTimeout(this.timer);
    const ticket = ++this.latest;
    this.timer = setTimeout(() => void this.check(ticket, text, paramsText), this.delayMs);
  }

  /** Drops the pending check and any answer still to come (a run answers instead). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.latest++;
  }

  private async check(ticket: number, text: string, paramsText: string): Promise<void> {
    this.timer = null;
    if (text.trim() === "") return this.report({ state: "empty" });
    const params = parseParams(paramsText);
    if (!params.ok) return this.report({ state: "invalid", diagnostics: [params.diagnostic] });
    let result: CheckResult;
    try {
      const plan = (await adHocQuery(text, params.params, true)) as { writes?: unknown };
      result = { state: "ok", writes: plan.writes === true };
    } catch (error) {
      result =
        error instanceof ApiError && error.diagnostics.length > 0
          ? { state: "invalid", diagnostics: error.diagnostics }
          : { state: "failed", error };
    }
    if (ticket === this.latest) this.report(result);
  }
}
