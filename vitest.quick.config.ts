// `npm run test:quick`, the inner loop (about a minute on 2 cores): the compiler, the conformance
// cases and the store, in process. No build needed, no process started. `npm test` runs every file,
// the servers, the CLI, crash and replication tests included.
import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

const COMPILER = [
  "grammar",
  "compiler",
  "corpus",
  "conformance",
  "case-format",
  "diagnostic-messages",
  "diagnostics-table",
  "nesting",
  "index-plan",
  "codegen-hot-paths",
  "values",
  "scalars",
  "params",
  "json-shape",
  "default-now",
];
const STORE = [
  "store",
  "store-open",
  "context",
  "nodes-where",
  "index-where",
  "edge-records",
  "edge-ends",
  "upsert",
  "drop",
  "migrate",
  "schema-info",
  "read-cache",
  "binary-keys",
  "id-bytes",
  "newest-id",
  "stored-ids",
  "graph-writer",
  "search-tokenizer",
  "bm25",
  "vector-store",
  "vector-search",
  "verify",
];
// The import rules and the named paths in docs and comments: cheap, and broken by most moves.
const SHAPE = ["layers", "doc-paths", "write-path", "failover-scenarios"];

// Not mergeConfig: it would append this list to the base's include instead of replacing it.
export default defineConfig({
  ...base,
  test: { ...base.test, include: [...COMPILER, ...STORE, ...SHAPE].map((name) => `test/${name}.test.ts`) },
});
