// search_vector, search_vector_text, search_keyword (wired once the vector and BM25 APIs land).
import { StrandError } from "../errors.js";
import type { JsonValue } from "../schema.js";
import type { ToolEnv } from "./env.js";

function pending(tool: string): never {
  throw new StrandError("INTERNAL", `${tool} is not wired yet`);
}

export function searchVector(_env: ToolEnv, _body: unknown): JsonValue {
  return pending("search_vector");
}

export function searchVectorText(_env: ToolEnv, _body: unknown): JsonValue {
  return pending("search_vector_text");
}

export function searchKeyword(_env: ToolEnv, _body: unknown): JsonValue {
  return pending("search_keyword");
}
