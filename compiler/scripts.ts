// The compiler's entry point for serving: HelixQL source texts in; diagnostics, the schema
// descriptor and one JavaScript module per query out (emit/query-script.ts), ready to evaluate.
// Loads neither ts-morph nor TypeScript (index.ts, `strand compile`'s entry, does). Pure and total.
import { compareStrings } from "../core/text-order.js";
import { QueryInternalError } from "./diagnostics/diagnostic.js";
import type { KindLabels } from "./emit/expressions.js";
import { queryScript } from "./emit/query-script.js";
import { type CompileOptions, type CompileResult, compileWith, type SourceText } from "./pipeline.js";

export function compileQueryScripts(sources: readonly SourceText[], options: CompileOptions = {}): CompileResult {
  return compileWith(sources, options, (schema, queries) => {
    // Code point order (the store's key order for labels), as modules.ts orders them.
    const sorted = (types: readonly { name: string }[]): string[] => types.map((t) => t.name).sort(compareStrings);
    const labels: KindLabels = { node: sorted(schema.nodes), edge: sorted(schema.edges), vector: sorted(schema.vectors) };
    return queries.map((query) => {
      try {
        return queryScript(query, labels);
      } catch (e) {
        throw new QueryInternalError(query.name, e);
      }
    });
  });
}
