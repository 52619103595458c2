// The compiler's pipeline: HelixQL source texts in; diagnostics, the schema descriptor, the
// checked queries and the files a generator makes of them out. Pure (no I/O) and total: it never
// throws on user input. Two entry points put a generator on it: index.ts (the TypeScript of
// `strand compile`, printed with ts-morph) and scripts.ts (the JavaScript `strand serve` runs,
// with no TypeScript loaded).
import type { Migration, QueryDef, SchemaItem, SourceFile, Span } from "./syntax/ast.js";
import { QueryInternalError, error, hasErrors, type Diagnostic } from "./diagnostics/diagnostic.js";
import { checkNesting } from "./syntax/nesting.js";
import { parseSource } from "./syntax/parser.js";
import { type CheckedSchema, checkSchema } from "./schema/schema-check.js";
import { checkQueries } from "./check/queries.js";
import { checkRouteNames } from "./check/routes.js";
import { checkMigrations, checkVersions } from "./schema/migration-check.js";
import type { GeneratedFile } from "./emit/structures.js";
import type { QueryIr } from "./ir/ir.js";
import type { SchemaDescriptor } from "../core/schema.js";

export interface SourceText {
  file: string;
  text: string;
}

export interface CompileOptions {
  /** module specifier generated code imports runtime types from; default "strand/runtime" */
  runtimeImport?: string;
  /** skip code generation (for `strand check`) */
  checkOnly?: boolean;
  /** generate only `queries/<Name>.ts`, the files `strand serve` loads (not schema.ts, index.ts, client.ts) */
  queryModulesOnly?: boolean;
  /** false when the project disables the BM25 keyword index (strand.toml `bm25 = false`) */
  bm25?: boolean;
  /** Where that `bm25 = false` is set, named in the E310 hint: "strand.toml" (default) or "helix.toml [local.dev]" */
  bm25Origin?: string;
  /** false when the project turns the agent tools off (strand.toml `mcp = false`); a query may then be named `mcp` */
  mcp?: boolean;
}

export interface CompileResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  schema: SchemaDescriptor | null;
  queries: QueryIr[];
  files: GeneratedFile[];
}

/**
 * Every file parsed (their syntax errors into `diagnostics`); null when one nests past MAX_NESTING,
 * which would overflow the checker or code generation: nothing more is checked then.
 */
function parseAll(sources: readonly SourceText[], diagnostics: Diagnostic[]): SourceFile[] | null {
  const asts: SourceFile[] = [];
  for (const source of sources) {
    const parsed = parseSource(source.text, source.file);
    diagnostics.push(...parsed.diagnostics);
    if (parsed.ast !== null) asts.push(parsed.ast);
  }
  return checkNesting(
    asts.flatMap((ast) => ast.items),
    diagnostics,
  ) > 0
    ? null
    : asts;
}

/** A project's schema, checked, for ad-hoc queries (adhoc.ts): null with the diagnostics when it does not check. */
export function checkedSchemaOf(sources: readonly SourceText[]): { schema: CheckedSchema | null; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const asts = parseAll(sources, diagnostics);
  if (asts === null) return { schema: null, diagnostics };
  const { schemaItems } = collect(asts, diagnostics);
  const schema = checkSchema(schemaItems, diagnostics);
  return { schema: hasErrors(diagnostics) ? null : schema, diagnostics };
}

/** What makes files of a checked project (it may throw QueryInternalError: reported as E999). */
export type Generate = (schema: SchemaDescriptor, queries: readonly QueryIr[]) => GeneratedFile[];

export function compileWith(sources: readonly SourceText[], options: CompileOptions, generate: Generate): CompileResult {
  const diagnostics: Diagnostic[] = [];
  let asts: SourceFile[] = [];
  try {
    const parsed = parseAll(sources, diagnostics);
    if (parsed === null) {
      sortDiagnostics(diagnostics);
      return { ok: false, diagnostics, schema: null, queries: [], files: [] };
    }
    asts = parsed;
    const { schemaItems, queries, versions, migrations } = collect(asts, diagnostics);
    const schema = checkSchema(schemaItems, diagnostics);
    if (versions.size > 0) {
      // The current version is checked above; the older ones only to check the migrations.
      const older = new Map([...versions].filter(([v]) => v !== Math.max(...versions.keys())));
      const checkedVersions = checkVersions(older, diagnostics);
      checkedVersions.set(Math.max(...versions.keys()), schema.descriptor);
      schema.descriptor.version = Math.max(...versions.keys());
      schema.descriptor.migrations = checkMigrations(migrations, checkedVersions, diagnostics);
    } else {
      for (const m of migrations)
        diagnostics.push(error("E311", "a MIGRATION needs versioned schemas (schema::1 { .. }, schema::2 { .. })", m.span));
    }
    const checked = checkQueries(queries, schema, diagnostics, { bm25: options.bm25 ?? true, bm25Origin: options.bm25Origin });
    checkRouteNames(queries, diagnostics, { mcp: options.mcp ?? true });
    sortDiagnostics(diagnostics);
    if (hasErrors(diagnostics)) return { ok: false, diagnostics, schema: null, queries: [], files: [] };
    const files = options.checkOnly === true ? [] : generate(schema.descriptor, checked);
    return { ok: true, diagnostics, schema: schema.descriptor, queries: checked, files };
  } catch (e) {
    // A bug in the compiler, not in the user's program: report it instead of crashing the caller,
    // at the query it happened in when known.
    const span = (e instanceof QueryInternalError ? queryNameSpan(asts, e.query) : null) ?? {
      file: sources[0]?.file ?? "<input>",
      start: { offset: 0, line: 1, column: 1 },
      end: { offset: 0, line: 1, column: 1 },
    };
    diagnostics.push(
      error(
        "E999",
        `internal compiler error: ${e instanceof Error ? e.message : String(e)}`,
        span,
        "please report this with the .hx files",
      ),
    );
    return { ok: false, diagnostics, schema: null, queries: [], files: [] };
  }
}

/** The span of the name of the first query called `name`. */
function queryNameSpan(asts: readonly SourceFile[], name: string): Span | null {
  for (const ast of asts) {
    for (const item of ast.items) if (item.kind === "Query" && item.name.name === name) return item.name.span;
  }
  return null;
}

/**
 * Gathers schema items, versions, migrations and queries from all files. Versioned schemas
 * (`schema::N { .. }`) use the highest version as the current schema.
 */
function collect(
  asts: readonly SourceFile[],
  diagnostics: Diagnostic[],
): { schemaItems: SchemaItem[]; queries: QueryDef[]; versions: Map<number, SchemaItem[]>; migrations: Migration[] } {
  const plain: SchemaItem[] = [];
  const versions = new Map<number, SchemaItem[]>();
  const migrations: Migration[] = [];
  const queries: QueryDef[] = [];
  for (const ast of asts) {
    for (const item of ast.items) {
      switch (item.kind) {
        case "NodeSchema":
        case "VectorSchema":
        case "EdgeSchema":
          plain.push(item);
          break;
        case "SchemaVersionBlock":
          versions.set(item.version, [...(versions.get(item.version) ?? []), ...item.items]);
          break;
        case "Migration":
          migrations.push(item);
          break;
        case "Query":
          queries.push(item);
          break;
      }
    }
  }
  if (plain.length > 0 && versions.size > 0) {
    diagnostics.push(
      error(
        "E312",
        "a project declares its schema either in schema::N blocks or outside them, not both",
        plain[0]!.span,
        "move these types into the current schema::N block",
      ),
    );
  }
  const latest = Math.max(-Infinity, ...versions.keys());
  const versioned = Number.isFinite(latest) ? versions.get(latest)! : [];
  return { schemaItems: [...plain, ...versioned], queries, versions, migrations };
}

export function sortDiagnostics(diagnostics: Diagnostic[]): void {
  diagnostics.sort((a, b) => (a.span.file < b.span.file ? -1 : a.span.file > b.span.file ? 1 : a.span.start.offset - b.span.start.offset));
}
