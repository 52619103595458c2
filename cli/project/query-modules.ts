// Evaluates a generated query module's JavaScript as an ES module from a data: URL. Generated
// query modules import types only, so the JavaScript has no imports left to resolve.
import type { QueryModule } from "../../core/query-module.js";
import { ProjectError } from "./sources.js";

export async function evaluateQueryModule(path: string, js: string): Promise<QueryModule> {
  const url = `data:text/javascript;base64,${Buffer.from(js, "utf8").toString("base64")}`;
  let namespace: { default?: unknown };
  try {
    namespace = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new ProjectError(`generated ${path} failed to load: ${(error as Error).message}`);
  }
  const module = namespace.default;
  if (!isQueryModule(module)) throw new ProjectError(`generated ${path} does not default-export a query module`);
  return module;
}

function isQueryModule(value: unknown): value is QueryModule {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Partial<Record<keyof QueryModule, unknown>>;
  return (
    typeof m.name === "string" &&
    Array.isArray(m.params) &&
    typeof m.writes === "boolean" &&
    Array.isArray(m.returns) &&
    typeof m.run === "function"
  );
}
