// What every module emitter shares: the ts-morph statement structures a file is built from, and
// the options of code generation.
import type { StatementStructures, WriterFunction } from "ts-morph";

export type Statement = StatementStructures | WriterFunction | string;

/** One generated file before printing: its path (with a leading "/") and its statements. */
export interface FileStructure {
  path: string;
  statements: Statement[];
}

export interface CodegenOptions {
  /** module specifier generated code imports runtime types from */
  runtimeImport: string;
  /** only the query modules (what `strand serve` loads), not schema.ts, index.ts and client.ts */
  queryModulesOnly?: boolean;
}
