// Emits the generated TypeScript files with ts-morph's structure printers, one emitter per file:
// `schema.ts` (record types and the schema descriptor, schema-module.ts), one `queries/<Name>.ts` per query
// (query-module.ts), `index.ts` (index-module.ts), and `client.ts`, a typed SDK (client-module.ts),
// with `client-types.ts`, the types it needs (client-types-module.ts), so the two stand alone.
// Query modules import types only, so the server can load them without resolving imports;
// `queryModulesOnly` emits only them (what `serve` loads).
//
// Each emitter returns a file's statement structures, printed in one printStructure call: a
// ts-morph Project source file would also parse the printed text into a syntax tree nobody reads,
// which was most of code generation's time.
import { printStructure, StructureKind, type PrintStructureOptions } from "ts-morph";
import { QueryInternalError } from "../diagnostics/diagnostic.js";
import type { QueryIr } from "../ir/ir.js";
import type { KindLabels } from "./expressions.js";
import { compareStrings } from "../../core/text-order.js";
import type { SchemaDescriptor } from "../../core/schema.js";
import { schemaModule } from "./schema-module.js";
import { queryModule } from "./query-module.js";
import { indexModule } from "./index-module.js";
import { clientModule } from "./client-module.js";
import { clientTypesModule } from "./client-types-module.js";
import { type CodegenOptions, type FileStructure, GENERATED_HEADER, type GeneratedFile } from "./structures.js";

export type { CodegenOptions, GeneratedFile } from "./structures.js";

export function generateModules(schema: SchemaDescriptor, queries: readonly QueryIr[], options: CodegenOptions): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const all = options.queryModulesOnly !== true;
  if (all) files.push(render(schemaModule(schema, options)));
  // Code point order (the store's key order for labels), not UTF-16 or locale order.
  const sorted = (types: readonly { name: string }[]): string[] => types.map((t) => t.name).sort(compareStrings);
  const labels: KindLabels = { node: sorted(schema.nodes), edge: sorted(schema.edges), vector: sorted(schema.vectors) };
  for (const query of queries) {
    try {
      files.push(render(queryModule(query, options, labels)));
    } catch (e) {
      throw new QueryInternalError(query.name, e);
    }
  }
  if (all) {
    files.push(render(indexModule(queries, options)));
    files.push(render(clientTypesModule(schema, queries, labels)));
    files.push(render(clientModule(queries)));
  }
  return files;
}

/**
 * Prints a file's structures to text. A ts-morph Project would also parse that text into a syntax
 * tree nobody reads (most of the time code generation took); the printers and settings
 * are the same, so the text is too.
 */
const PRINT_OPTIONS: PrintStructureOptions = {
  indentNumberOfSpaces: 2,
  newLine: "\n",
  useSingleQuote: false,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
};

function render(file: FileStructure): GeneratedFile {
  const text = printStructure({ kind: StructureKind.SourceFile, statements: file.statements }, PRINT_OPTIONS);
  return { path: file.path.replace(/^\//, ""), text: GENERATED_HEADER + text };
}
