// The HelixQL editor: a plain <textarea> (so typing, undo, selection and paste are the
// browser's) over a <pre> that shows the same text coloured and with diagnostics underlined,
// kept in step on every input and scroll. Both use one monospace font and no wrapping, so a
// character sits at the same place in each. A list under the caret offers completions
// (↑/↓ to choose, Enter or Tab to take, Esc to close); Ctrl+Enter (⌘+Enter) runs.
import { type Completion, complete, type SchemaShape } from "./completion.js";
import { type Diagnostic, markOf, offsetOf, segments } from "./spans.js";
import { tokenize } from "./tokens.js";

export interface EditorElements {
  text: HTMLTextAreaElement;
  highlight: HTMLElement;
  completions: HTMLUListElement;
}

export class QueryEditor {
  private schema: SchemaShape = { nodes: [], vectors: [], edges: [] };
  private diagnostics: readonly Diagnostic[] = [];
  private offered: Completion | null = null;
  private chosen = 0;

  constructor(
    private readonly el: EditorElements,
    private readonly onChange: () => void,
    private readonly onRun: () => void,
  ) {
    el.text.addEventListener("input", () => {
      this.diagnostics = [];
      this.render();
      this.suggest();
      this.onChange();
    });
    el.text.addEventListener("scroll", () => this.syncScroll());
    el.text.addEventListener("keydown", (event) => this.key(event));
    el.text.addEventListener("blur", () => this.closeCompletions());
    // mousedown, not click: a click would blur the textarea (closing the list) first.
    el.completions.addEventListener("mousedown", (event) => {
      const li = (event.target as HTMLElement).closest("li");
      if (li === null) return;
      event.preventDefault();
      this.accept(Number(li.dataset.index));
    });
    this.render();
  }

  get value(): string {
    return this.el.text.value;
  }

  /** Replaces the text (a saved query), as if typed: diagnostics cleared, a check follows. */
  set value(text: string) {
    this.el.text.value = text;
    this.diagnostics = [];
    this.closeCompletions();
    this.render();
    this.onChange();
  }

  setSchema(schema: SchemaShape): void {
    this.schema = schema;
  }

  setDiagnostics(diagnostics: readonly Diagnostic[]): void {
    this.diagnostics = diagnostics;
    this.render();
  }

  /** Puts the caret at 1-based line:column (a diagnostic picked from the list). */
  focusAt(line: number, column: number): void {
    const at = offsetOf(this.value, line, column);
    this.el.text.focus();
    this.el.text.setSelectionRange(at, at);
  }

  private render(): void {
    const text = this.value;
    const marks = this.diagnostics.filter((d) => d.line >= 1).map((d) => markOf(text, d));
    const spans = segments(text, tokenize(text), marks).map((s) => {
      const span = document.createElement("span");
      span.textContent = s.text;
      span.className = `tok-${s.kind}`;
      if (s.mark !== undefined) {
        span.classList.add(`mark-${s.mark}`);
        span.title = s.title ?? "";
      }
      return span;
    });
    // A trailing newline would be dropped by the <pre>: the extra line keeps the heights equal.
    this.el.highlight.replaceChildren(...spans, document.createTextNode("\n "));
    this.syncScroll();
  }

  private syncScroll(): void {
    this.el.highlight.scrollTop = this.el.text.scrollTop;
    this.el.highlight.scrollLeft = this.el.text.scrollLeft;
  }

  private key(event: KeyboardEvent): void {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      this.closeCompletions();
      this.onRun();
      return;
    }
    if (event.key === " " && event.ctrlKey) {
      event.preventDefault();
      this.suggest();
      return;
    }
    if (this.offered === null) return;
    const count = this.offered.items.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      this.chosen = (this.chosen + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
      this.drawCompletions();
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      this.accept(this.chosen);
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.closeCompletions();
    }
  }

  /** Offers completions for the caret, when nothing is selected. */
  private suggest(): void {
    const { selectionStart, selectionEnd } = this.el.text;
    this.offered = selectionStart === selectionEnd ? complete(this.value.slice(0, selectionStart), this.schema) : null;
    this.chosen = 0;
    this.drawCompletions();
  }

  private drawCompletions(): void {
    const list = this.el.completions;
    if (this.offered === null) {
      list.hidden = true;
      list.replaceChildren();
      return;
    }
    list.replaceChildren(
      ...this.offered.items.map((item, index) => {
        const li = document.createElement("li");
        li.textContent = item;
        li.dataset.index = String(index);
        li.setAttribute("role", "option");
        if (index === this.chosen) {
          li.className = "chosen";
          li.setAttribute("aria-selected", "true");
        }
        return li;
      }),
    );
    list.dataset.kind = this.offered.kind;
    const at = this.caretPoint();
    list.style.left = `${at.left}px`;
    list.style.top = `${at.top}px`;
    list.hidden = false;
    list.children[this.chosen]?.scrollIntoView({ block: "nearest" });
  }

  private closeCompletions(): void {
    this.offered = null;
    this.drawCompletions();
  }

  /** Replaces the typed prefix with the chosen name; a type name also gets its closing `>`. */
  private accept(index: number): void {
    const offer = this.offered;
    const item = offer?.items[index];
    if (offer === null || item === undefined) return;
    const area = this.el.text;
    const caret = area.selectionStart;
    const close = offer.kind === "type" && area.value[caret] !== ">" ? ">" : "";
    area.focus();
    area.setRangeText(item + close, offer.from, caret, "end");
    area.dispatchEvent(new Event("input"));
    this.closeCompletions();
  }

  /** The caret's place in the editor box (monospace, no wrap: line and column give it). */
  private caretPoint(): { left: number; top: number } {
    const area = this.el.text;
    const before = this.value.slice(0, area.selectionStart);
    const line = before.split("\n").length - 1;
    const column = before.length - (before.lastIndexOf("\n") + 1);
    const style = getComputedStyle(area);
    const lineHeight = Number.parseFloat(style.lineHeight);
    const charWidth = measureCharWidth(style.font);
    return {
      left: Math.max(0, area.offsetLeft + Number.parseFloat(style.paddingLeft) + column * charWidth - area.scrollLeft),
      top: area.offsetTop + Number.parseFloat(style.paddingTop) + (line + 1) * lineHeight - area.scrollTop + 2,
    };
  }
}

let measured: { font: string; width: number } | null = null;

function measureCharWidth(font: string): number {
  if (measured?.font !== font) {
    const context = document.createElement("canvas").getContext("2d");
    let width = 8;
    if (context !== null) {
      context.font = font;
      width = context.measureText("M".repeat(100)).width / 100;
    }
    measured = { font, width };
  }
  return measured.width;
}
