// The shell's input, line by line, into entries: a query (one or more lines) or a `:command`.
// The rule, the same on a terminal and on stdin (`:help` says it in short):
//   - a line that starts with `:` (when no query is pending) is a command;
//   - a query ends at the first line where its brackets ( [ { are balanced (outside strings and
//     `//` comments), unless it is a body or a QUERY: one that starts with QUERY, or has an
//     assignment (`x <- ...`), a DROP or a FOR at the start of a line, goes on until its RETURN;
//   - a line ending in `\` always continues; a line ending in `;`, a blank line or the end of the
//     input ends the pending query as it is (the server then says what is missing).
// `:explain <query>` reads its query by the same rule (or the next query, when given alone).

export type Entry = { kind: "query"; text: string; explain: boolean } | { kind: "command"; name: string; argument: string };

export class EntryReader {
  private lines: string[] = [];
  private explain = false;

  /** Whether a query is waiting for more lines (the continuation prompt). */
  get pending(): boolean {
    return this.lines.length > 0 || this.explain;
  }

  /** Takes one line; the entry it completes, or null (it needs more lines, or was blank). */
  push(line: string): Entry | null {
    if (this.lines.length === 0) {
      const trimmed = line.trim();
      if (trimmed === "" || trimmed.startsWith("//")) return null;
      if (trimmed.startsWith(":")) {
        const match = /^:(\S*)\s*([\s\S]*)$/.exec(trimmed)!;
        const name = match[1]!;
        const argument = match[2]!;
        if (name !== "explain") {
          this.explain = false; // `:explain` alone, then a command: the command
          return { kind: "command", name, argument };
        }
        this.explain = true;
        return argument === "" ? null : this.push(argument);
      }
    }
    if (line.trim() === "") return this.flush();
    const end = line.trimEnd();
    if (end.endsWith("\\")) {
      this.lines.push(end.slice(0, -1));
      return null;
    }
    if (end.endsWith(";")) {
      this.lines.push(end.slice(0, -1));
      return this.flush();
    }
    this.lines.push(line);
    return isComplete(this.lines.join("\n")) ? this.flush() : null;
  }

  /** What is pending, as it is (a blank line, `;`, the end of the input); null when nothing is. */
  flush(): Entry | null {
    const text = this.lines.join("\n");
    const explain = this.explain;
    this.clear();
    return text.trim() === "" ? null : { kind: "query", text, explain };
  }

  /** Drops what is pending (Ctrl-C). */
  clear(): void {
    this.lines = [];
    this.explain = false;
  }
}

const OPEN = new Set(["(", "[", "{"]);
const CLOSE = new Set([")", "]", "}"]);
/** What at the start of a line makes the text a body (or a QUERY), which ends with its RETURN. */
const BODY_START = /^(?:QUERY\b|DROP\b|FOR\b|[A-Za-z_]\w*\s*<-)/;

/** Whether `text` is a whole query by the rule above. */
export function isComplete(text: string): boolean {
  let depth = 0;
  let body = false;
  let returned = false;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      lineStart = true;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") continue;
    if (lineStart && depth <= 0) {
      const rest = text.slice(i);
      if (BODY_START.test(rest)) body = true;
      else if (/^RETURN\b/.test(rest)) returned = true;
    }
    lineStart = false;
    if (c === '"') {
      i = stringEnd(text, i);
    } else if (c === "/" && text[i + 1] === "/") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline - 1;
    } else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
  }
  return depth <= 0 && (!body || returned);
}

/** The index of the quote that closes the string opened at `start` (or the last index: unclosed). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}
