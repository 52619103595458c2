// Reads the declarative conformance case format (test/conformance/*.case; every section is
// described in test/conformance/README.md) into the steps test/support/case-runner.ts runs, and
// rewrites a case's expectations in place (the update mode, STRAND_UPDATE_CASES=1).
//
//   # one line saying what the case pins down
//   --- hx                        HelixQL source (schema and queries); may appear several times
//   --- call <Query> [json]       one request POST /<Query>; the body may continue on the next lines
//   --- mcp <tool> [json]         one request POST /mcp/<tool> (the agent tools), likewise
//   --- expect [status]           the exact JSON response (status 200 when omitted)
//   --- reopen                    close the store and open it again on the same data directory
//   --- schema change             the whole new project (schema and queries); the store is closed
//                                 and opened with it
//   --- refused                   right after a schema change: the open fails with exactly this
//                                 message; the case goes on with the previous project reopened
//   --- diagnostics               instead of calls: the program must be rejected with exactly these
//                                 errors, one per line: `CODE line:col` or `CODE line:col message`,
//                                 then an indented `hint: ..` line when the error has a hint
//
// Placeholders in expected JSON and in refusal messages are handled by test/support/case-json.ts.

/** The lines of a section's body: [start, end) 0-based indexes into the file's lines, trailing blank lines excluded. */
export interface LineRange {
  start: number;
  end: number;
}

export interface Expectation {
  status: number;
  json: string;
  /** 0-based index of the `--- expect` line; the body follows it. */
  header: number;
  body: LineRange;
}

export interface CallStep {
  kind: "call";
  /** The request path: `/<Query>` or `/mcp/<tool>`. */
  path: string;
  body: string;
  /** 1-based line of the `--- call` or `--- mcp` header. */
  line: number;
  expect: Expectation;
}

export interface ReopenStep {
  kind: "reopen";
  line: number;
}

export interface Refusal {
  message: string;
  header: number;
  body: LineRange;
}

export interface SchemaChangeStep {
  kind: "schema change";
  hx: string;
  line: number;
  /** The expected refusal of the open, or null when it must succeed. */
  refused: Refusal | null;
  /** 0-based line where a `--- refused` section would go (the line after the new project). */
  refusalAt: number;
}

export type Step = CallStep | ReopenStep | SchemaChangeStep;

export interface DiagnosticsExpectation {
  /** `CODE line:col`, or `CODE line:col message` with `\n  hint: ..` when the error has a hint; one per expected error. */
  lines: string[];
  header: number;
  body: LineRange;
}

export interface CaseFile {
  title: string;
  hx: string;
  steps: Step[];
  diagnostics: DiagnosticsExpectation | null;
  /** Every `$name` the file mentions: the update mode never invents one of these. */
  names: Set<string>;
}

interface Section {
  header: string;
  /** 0-based line index of the header. */
  at: number;
  lines: string[];
  body: LineRange;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function sectionsOf(lines: string[]): { title: string; sections: Section[] } {
  let title = "";
  const sections: Section[] = [];
  lines.forEach((line, i) => {
    if (line.startsWith("--- ")) {
      sections.push({ header: line.slice(4).trim(), at: i, lines: [], body: { start: i + 1, end: i + 1 } });
      return;
    }
    const current = sections.at(-1);
    if (current === undefined) {
      if (line.startsWith("# ") && title === "") title = line.slice(2).trim();
      return;
    }
    current.lines.push(line);
    if (line.trim() !== "") current.body.end = i + 1;
  });
  for (const s of sections) s.lines = s.lines.slice(0, s.body.end - s.body.start);
  return { title, sections };
}

/** `Name rest` of a call header: the target and the JSON body (header rest plus the body lines). */
function request(section: Section, where: string): { name: string; body: string } {
  const rest = section.header.slice(section.header.indexOf(" ") + 1).trim();
  const space = rest.indexOf(" ");
  const name = space < 0 ? rest : rest.slice(0, space);
  if (!NAME.test(name)) throw new Error(`${where}: '${name}' is not a query or tool name`);
  const body = [space < 0 ? "" : rest.slice(space + 1), ...section.lines].join("\n").trim();
  return { name, body: body === "" ? "{}" : body };
}

/** One entry per error: a `hint: ..` line belongs to the error above it. */
function diagnosticEntries(lines: readonly string[]): string[] {
  const entries: string[] = [];
  for (const line of lines.map((l) => l.trim()).filter((l) => l !== "")) {
    if (line.startsWith("hint: ") && entries.length > 0) entries[entries.length - 1] += `\n  ${line}`;
    else entries.push(line);
  }
  return entries;
}

export function parseCaseFile(text: string, file: string): CaseFile {
  const lines = text.split("\n");
  const { title, sections } = sectionsOf(lines);
  const hx: string[] = [];
  const steps: Step[] = [];
  let diagnostics: DiagnosticsExpectation | null = null;
  let pending: { path: string; body: string; line: number } | null = null;

  sections.forEach((section, index) => {
    const where = `${file}:${section.at + 1}`;
    const [word = ""] = section.header.split(" ");
    const text = section.lines.join("\n");
    if (pending !== null && word !== "expect") throw new Error(`${where}: the --- call on line ${pending.line} has no --- expect`);
    if (word === "hx") {
      if (steps.length > 0) throw new Error(`${where}: --- hx after the first call; replace the project with --- schema change`);
      hx.push(text);
    } else if (word === "diagnostics") {
      diagnostics = { lines: diagnosticEntries(section.lines), header: section.at, body: section.body };
    } else if (word === "call" || word === "mcp") {
      const { name, body } = request(section, where);
      pending = { path: word === "call" ? `/${name}` : `/mcp/${name}`, body, line: section.at + 1 };
    } else if (word === "expect") {
      if (pending === null) throw new Error(`${where}: --- expect without a preceding --- call`);
      const status = section.header.slice("expect".length).trim();
      const json = text.trim();
      if (json === "") throw new Error(`${where}: --- expect has no JSON`);
      steps.push({
        kind: "call",
        ...pending,
        expect: { status: status === "" ? 200 : Number(status), json, header: section.at, body: section.body },
      });
      pending = null;
    } else if (section.header === "reopen") {
      if (text.trim() !== "") throw new Error(`${where}: --- reopen takes no body`);
      steps.push({ kind: "reopen", line: section.at + 1 });
    } else if (section.header === "schema change") {
      const next = sections[index + 1];
      steps.push({
        kind: "schema change",
        hx: text,
        line: section.at + 1,
        refused: null,
        refusalAt: next === undefined ? lines.length : next.at,
      });
    } else if (section.header === "refused") {
      const change = steps.at(-1);
      if (change?.kind !== "schema change" || change.refused !== null)
        throw new Error(`${where}: --- refused must follow a --- schema change`);
      change.refused = { message: text.trim(), header: section.at, body: section.body };
    } else throw new Error(`${where}: unknown section '${section.header}'`);
  });
  if (pending !== null) throw new Error(`${file}: the last --- call has no --- expect`);
  if (title === "") throw new Error(`${file}: the first line must be '# <what this case pins down>'`);
  if (diagnostics !== null && steps.length > 0) throw new Error(`${file}: a case has either --- diagnostics or calls, not both`);
  const names = new Set(text.match(/\$[A-Za-z0-9_]+/g) ?? []);
  return { title, hx: hx.join("\n"), steps, diagnostics, names };
}

/** Lines [start, end) of the file replaced by `lines` (an insertion when start === end). */
export interface Edit {
  start: number;
  end: number;
  lines: string[];
}

export function expectEdit(expectation: Expectation, status: number, json: string): Edit {
  return { start: expectation.header, end: expectation.body.end, lines: [status === 200 ? "--- expect" : `--- expect ${status}`, json] };
}

/** What a schema change's refusal becomes: the message (null: the open succeeded, so no `--- refused`). */
export function refusalEdit(step: SchemaChangeStep, message: string | null): Edit {
  const lines = message === null ? [] : ["--- refused", ...message.split("\n")];
  return step.refused === null
    ? { start: step.refusalAt, end: step.refusalAt, lines }
    : { start: step.refused.header, end: step.refused.body.end, lines };
}

export function diagnosticsEdit(expectation: DiagnosticsExpectation, lines: string[]): Edit {
  return { start: expectation.header, end: expectation.body.end, lines: ["--- diagnostics", ...lines.flatMap((l) => l.split("\n"))] };
}

/** Applies non-overlapping edits to the file's text. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const lines = text.split("\n");
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) lines.splice(edit.start, edit.end - edit.start, ...edit.lines);
  return lines.join("\n");
}
