// The query editor panel: the editor and its parameters box, the check as you type, Run
// (Ctrl+Enter) through `POST /query`, and the saved queries. An answer goes to the results
// views (Table first) and its nodes and edges to the graph.
import { ApiError, adHocQuery } from "../api.js";
import type { SchemaShape } from "./completion.js";
import { type CheckResult, Checker, parseParams, renderDiagnostics } from "./diagnostics.js";
import { QueryEditor } from "./editor.js";
import type { ResultsView } from "./results.js";
import { SavedQueries } from "./saved-queries.js";
import type { Diagnostic } from "./spans.js";

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} is missing from the page`);
  return el as T;
};

export interface PanelHost {
  results: ResultsView;
  /** Draws an answer's nodes and edges; says how many. */
  drawAnswer(answer: unknown): { nodes: number; edges: number };
  status(text: string, error?: boolean): void;
  /** An error the page handles (a 401 shows the key box). */
  fail(error: unknown): void;
}

export class EditorPanel {
  private readonly editor: QueryEditor;
  private readonly checker: Checker;
  private readonly saved = new SavedQueries(localStorage);
  private readonly params = $<HTMLTextAreaElement>("editor-params");
  private readonly check = $("editor-check");

  constructor(private readonly host: PanelHost) {
    this.checker = new Checker((result) => this.checked(result));
    this.editor = new QueryEditor(
      { text: $("editor-text"), highlight: $("editor-highlight"), completions: $("editor-completions") },
      () => this.changed(),
      () => void this.run(),
    );
    this.params.addEventListener("input", () => this.changed());
    this.params.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void this.run();
      }
    });
    $("editor-run").onclick = () => void this.run();
    $("save-query").onclick = () => this.save();
    this.drawSaved();
  }

  /** The served schema, for completion; the text is checked again (the key may be new). */
  setSchema(schema: SchemaShape): void {
    this.editor.setSchema(schema);
    if (this.editor.value.trim() !== "") this.changed();
  }

  private changed(): void {
    this.setCheck("checking…", "pending");
    this.checker.schedule(this.editor.value, this.params.value);
  }

  private setCheck(text: string, state: string): void {
    this.check.textContent = text;
    this.check.dataset.state = state;
  }

  private showDiagnostics(diagnostics: readonly Diagnostic[]): void {
    this.editor.setDiagnostics(diagnostics);
    renderDiagnostics($("editor-diagnostics"), diagnostics, (d) => this.editor.focusAt(d.line, d.column));
  }

  private checked(result: CheckResult): void {
    switch (result.state) {
      case "empty":
        this.showDiagnostics([]);
        this.setCheck("", "empty");
        break;
      case "ok":
        this.showDiagnostics([]);
        this.setCheck(result.writes ? "compiles (writes)" : "compiles (reads)", "ok");
        break;
      case "invalid": {
        this.showDiagnostics(result.diagnostics);
        const errors = result.diagnostics.filter((d) => d.severity === "error").length;
        this.setCheck(errors === 1 ? "1 error" : `${errors} errors`, "invalid");
        break;
      }
      case "failed":
        this.setCheck(result.error instanceof ApiError ? `${result.error.code}: ${result.error.message}` : "check failed", "failed");
        this.host.fail(result.error);
        break;
    }
  }

  private async run(): Promise<void> {
    const text = this.editor.value;
    if (text.trim() === "") return;
    this.checker.cancel();
    const params = parseParams(this.params.value);
    if (!params.ok) {
      this.showDiagnostics([params.diagnostic]);
      this.host.status(params.diagnostic.message, true);
      return;
    }
    this.host.status("running…");
    try {
      const answer = await adHocQuery(text, params.params, false);
      this.showDiagnostics([]);
      this.setCheck("ran", "ok");
      this.host.results.set(answer);
      const drawn = this.host.drawAnswer(answer);
      this.host.results.show("table");
      this.host.status(`query: ${drawn.nodes} nodes, ${drawn.edges} edges in the answer`);
    } catch (error) {
      if (error instanceof ApiError && error.diagnostics.length > 0) {
        this.checked({ state: "invalid", diagnostics: error.diagnostics });
        this.host.status(`${error.code}: ${error.message}`, true);
      } else {
        // Also beside the editor: the status line is across the page.
        const problem =
          error instanceof ApiError ? { code: error.code, message: error.message } : { code: "ERROR", message: String(error) };
        this.showDiagnostics([{ ...problem, severity: "error", line: 0, column: 0 }]);
        this.setCheck("failed", "failed");
        this.host.fail(error);
      }
    }
  }

  private save(): void {
    const name = $<HTMLInputElement>("save-name").value.trim();
    if (name === "" || this.editor.value.trim() === "") {
      this.host.status("a saved query needs a name and a text", true);
      return;
    }
    this.saved.save({ name, query: this.editor.value, params: this.params.value });
    this.drawSaved();
    this.host.status(`saved '${name}' in this browser`);
  }

  private drawSaved(): void {
    $("saved-queries").replaceChildren(
      ...this.saved.list().map((q) => {
        const li = document.createElement("li");
        const load = Object.assign(document.createElement("button"), { className: "load", textContent: q.name, title: q.query });
        load.onclick = () => {
          $<HTMLInputElement>("save-name").value = q.name;
          this.params.value = q.params;
          this.editor.value = q.query;
        };
        const remove = Object.assign(document.createElement("button"), {
          className: "delete",
          textContent: "×",
          title: `delete '${q.name}'`,
        });
        remove.onclick = () => {
          this.saved.remove(q.name);
          this.drawSaved();
        };
        li.append(load, remove);
        return li;
      }),
    );
  }
}
