// What every module emitter shares: the ts-morph statement structures a file is built from, and
// the options of code generation.
import type { StatementStructures, WriterFunction } from "ts-morph";

export type Statement = StatementStructures | WriterFunction | string;

export interface CodegenOptions {
  /** module specifier generated code imports runtime types from */
  runtimeImport: string;
}
