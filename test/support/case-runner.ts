// Runs one conformance case (test/support/case-file.ts) in process: compile its HelixQL, open a
// GraphStore on a fresh data directory, serve it with the HTTP app, send each call, reopen or
// replace the project where the case says so, and report every expectation as a Check. A check
// holds the expected value and the actual one written as an expectation (placeholders kept where
// they still match), so a failure diffs only what differs and the update mode can write it back.
import type { Hono } from "hono";
import { compileProject, type Diagnostic } from "../../compiler/index.js";
import { evaluateQueryModule } from "../../cli/project/query-modules.js";
import { compileQueryScripts } from "../../compiler/scripts.js";
import type { QueryModule } from "../../core/query-module.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { createEmbedder } from "../../runtime/embed/embedder.js";
import { embeddersFor } from "../../runtime/embed/embedders.js";
import { GraphStore } from "../../runtime/graph-store.js";
import { createApp } from "../../server/index.js";
import {
  diagnosticsEdit,
  expectEdit,
  refusalEdit,
  type CallStep,
  type CaseFile,
  type DiagnosticsExpectation,
  type Edit,
  type SchemaChangeStep,
} from "./case-file.js";
import { asExpectation, formatJson, newBindings, reconcile, substitute, type Bindings } from "./case-json.js";

export interface Check {
  /** `file:line` of the call (or section) and what it is. */
  where: string;
  /** The first difference, or null when the expectation holds. */
  mismatch: string | null;
  expected: unknown;
  actual: unknown;
  /** The case file edit that makes the expectation what the engine returned. */
  edit: Edit;
}

interface Project {
  schema: SchemaDescriptor;
  queries: QueryModule[];
}

const created = createEmbedder("hash", {});
if (!created.ok) throw new Error(created.error);
// The project default: the built-in offline `hash` embedding model.
const embedders = embeddersFor(created.embedder, {});

const errorsOf = (diagnostics: readonly Diagnostic[]): Diagnostic[] => diagnostics.filter((d) => d.severity === "error");
// One line per error (a newline in a message would be written as \n), then its hint as `strand check` prints it.
const diagnosticLine = (d: Diagnostic): string =>
  `${d.code} ${d.span.start.line}:${d.span.start.column} ${d.message.replaceAll("\n", "\\n")}${d.hint === undefined ? "" : `\n  hint: ${d.hint.replaceAll("\n", "\\n")}`}`;

async function compile(hx: string, where: string): Promise<Project> {
  // The JavaScript `strand serve` runs (compiler/scripts.ts), not `strand compile`'s TypeScript.
  const compiled = compileQueryScripts([{ file: "case.hx", text: hx }], { runtimeImport: "strand/runtime" });
  const errors = errorsOf(compiled.diagnostics);
  if (errors.length > 0 || compiled.schema == null)
    throw new Error(`${where}: the project does not compile:\n${errors.map(diagnosticLine).join("\n")}`);
  const queries: QueryModule[] = [];
  for (const f of compiled.files) queries.push(await evaluateQueryModule(f.path, f.text));
  return { schema: compiled.schema, queries };
}

/** The store and app of one data directory; `open` is what a (re)started server does. */
class Server {
  private store: GraphStore | null = null;
  private app: Hono | null = null;

  constructor(private readonly dataDir: string) {}

  open(project: Project): void {
    const store = GraphStore.open({ path: this.dataDir, schema: project.schema });
    this.store = store;
    this.app = createApp({ store, queries: project.queries, schema: project.schema, embedders });
  }

  /** POST `path` with a JSON body, as a client of the running server. */
  post(path: string, body: string): Promise<Response> | Response {
    if (this.app === null) throw new Error("the case's server is not open");
    return this.app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body });
  }

  async close(): Promise<void> {
    const store = this.store;
    this.store = null;
    this.app = null;
    if (store !== null) await store.close();
  }
}

/** Runs the case on a fresh data directory `dataDir`; every expectation becomes a Check. */
export async function runCase(testCase: CaseFile, file: string, dataDir: string): Promise<Check[]> {
  if (testCase.diagnostics !== null) return [checkDiagnostics(testCase.hx, testCase.diagnostics, file)];
  let project = await compile(testCase.hx, file);
  const bindings = newBindings(testCase.names);
  const server = new Server(dataDir);
  const checks: Check[] = [];
  server.open(project);
  try {
    for (const step of testCase.steps) {
      if (step.kind === "call") checks.push(await checkCall(server, step, bindings, file));
      else if (step.kind === "reopen") {
        await server.close();
        server.open(project);
      } else {
        const next = await compile(step.hx, `${file}:${step.line}`);
        const check = await changeSchema(server, project, next, step, bindings, file);
        if (check.refusal === null) project = next;
        checks.push(check.check);
      }
    }
  } finally {
    await server.close();
  }
  return checks;
}

async function checkCall(server: Server, step: CallStep, bindings: Bindings, file: string): Promise<Check> {
  const response = await server.post(step.path, substitute(step.body, bindings));
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${file}:${step.line} POST ${step.path}: the response is not JSON (${response.status}): ${text.slice(0, 200)}`);
  }
  const expected = JSON.parse(step.expect.json) as unknown;
  const got = reconcile(expected, body, bindings);
  const status = response.status === step.expect.status ? null : `status ${response.status}, expected ${step.expect.status}`;
  return {
    where: `${file}:${step.line} POST ${step.path}`,
    mismatch: status ?? got.mismatch,
    expected: { status: step.expect.status, body: expected },
    actual: { status: response.status, body: got.value },
    edit: expectEdit(step.expect, response.status, formatJson(got.value)),
  };
}

/**
 * Restarts the server with the new project. A refused open is checked against the expected
 * message, and then the previous project must still open the data (nothing was changed).
 */
async function changeSchema(
  server: Server,
  previous: Project,
  next: Project,
  step: SchemaChangeStep,
  bindings: Bindings,
  file: string,
): Promise<{ check: Check; refusal: string | null }> {
  await server.close();
  let refusal: string | null = null;
  try {
    server.open(next);
  } catch (error) {
    refusal = (error as Error).message;
    server.open(previous);
  }
  const expected = step.refused === null ? null : step.refused.message;
  let mismatch: string | null = null;
  let written: string | null = refusal;
  if (refusal === null || expected === null) {
    if (refusal !== expected)
      mismatch = refusal === null ? "the open succeeded, expected it refused" : "the open was refused, expected it to succeed";
    if (refusal !== null) written = asExpectation(refusal, bindings) as string;
  } else {
    const got = reconcile(expected, refusal, bindings);
    mismatch = got.mismatch;
    written = got.value as string;
  }
  return {
    refusal,
    check: {
      where: `${file}:${step.line} schema change`,
      mismatch,
      expected: { refused: expected },
      actual: { refused: written },
      edit: refusalEdit(step, written),
    },
  };
}

/** `CODE line:col` pins code and position; `CODE line:col message` the full text as well. */
function checkDiagnostics(hx: string, expectation: DiagnosticsExpectation, file: string): Check {
  const compiled = compileProject([{ file: "case.hx", text: hx }], { runtimeImport: "strand/runtime" });
  const actual = errorsOf(compiled.diagnostics).map(diagnosticLine);
  const written = actual.map((line, i) => {
    const want = expectation.lines[i];
    return want !== undefined && /^\S+ \d+:\d+$/.test(want) && line.startsWith(`${want} `) ? want : line;
  });
  const differs = written.length !== expectation.lines.length || written.some((l, i) => l !== expectation.lines[i]);
  return {
    where: `${file}:${expectation.header + 1} diagnostics`,
    mismatch: differs ? "the errors differ" : null,
    expected: expectation.lines,
    actual: written,
    edit: diagnosticsEdit(expectation, written),
  };
}
