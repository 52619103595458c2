// Query names the HTTP server cannot route (E313). Every query is served as `POST /<Name>`, and
// with the agent tools on (strand.toml `mcp`, the default) `POST /mcp` is the MCP protocol
// endpoint, so a query named `mcp` could never be called. `GET /health` and `GET /introspect`
// take no POST: queries named `health` or `introspect` are served as usual.
import type { QueryDef } from "../syntax/ast.js";
import { error, type Diagnostic } from "../diagnostics/diagnostic.js";

export interface RouteCheckOptions {
  /** false when the project turns the agent tools off (`mcp = false`); `/mcp` is then free. */
  mcp: boolean;
}

export function checkRouteNames(queries: readonly QueryDef[], diagnostics: Diagnostic[], options: RouteCheckOptions): void {
  if (!options.mcp) return;
  for (const query of queries) {
    if (query.name.name !== "mcp") continue;
    diagnostics.push(
      error(
        "E313",
        "a query named 'mcp' collides with the MCP endpoint POST /mcp",
        query.name.span,
        "rename the query, or set `mcp = false` in strand.toml to turn the agent tools off",
      ),
    );
  }
}
