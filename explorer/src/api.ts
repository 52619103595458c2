// Calls to the server the page came from. The api key, when the server wants one, is asked for
// once and kept for the tab (sessionStorage); every call sends it as x-api-key.
import type { Diagnostic } from "./editor/spans.js";

export interface Introspection {
  schema: {
    nodes: TypeInfo[];
    vectors: TypeInfo[];
    edges: (TypeInfo & { from: string; to: string })[];
  };
  queries: { name: string; parameters: Record<string, string>; returns: string[] }[];
}

export interface TypeInfo {
  name: string;
  properties: Record<string, string>;
}

export interface Item {
  id: string;
  label: string;
  from_node?: string;
  to_node?: string;
  [field: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** A query that does not compile (400 INVALID_QUERY): where and why. */
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
  }
}

const KEY_STORAGE = "strand-explorer-key";

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function setApiKey(key: string): void {
  if (key === "") sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

async function send(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {};
  const key = apiKey();
  if (key !== null) headers["x-api-key"] = key;
  if (method === "POST") headers["content-type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const parsed: unknown = text === "" ? null : JSON.parse(text);
  if (!response.ok) {
    const err = (parsed ?? {}) as { error?: string; code?: string; diagnostics?: unknown };
    const diagnostics = Array.isArray(err.diagnostics) ? (err.diagnostics as Diagnostic[]) : [];
    throw new ApiError(response.status, err.code ?? "UNKNOWN", err.error ?? response.statusText, diagnostics);
  }
  return parsed;
}

export const introspect = (): Promise<Introspection> => send("GET", "/introspect") as Promise<Introspection>;

export const nodesPage = (label: string, offset: number, limit: number, field: string, contains: string) =>
  send("POST", "/explorer/api/nodes", { label, offset, limit, field, contains }) as Promise<{ items: Item[]; more: boolean }>;

export const neighbours = (id: string) =>
  send("POST", "/explorer/api/neighbours", { id }) as Promise<{ center: Item; nodes: Item[]; edges: Item[] }>;

export const runQuery = (name: string, params: Record<string, unknown>): Promise<unknown> => send("POST", `/${name}`, params);

/** `POST /query`: an ad-hoc HelixQL text; with `explain`, compiled and checked but not run. */
export const adHocQuery = (query: string, params: Record<string, unknown>, explain: boolean): Promise<unknown> =>
  send("POST", "/query", { query, params, explain });

/** A one-shot /mcp search: open a connection, search, collect, close. */
export async function search(tool: "search_keyword" | "search_vector_text", label: string, query: string): Promise<Item[]> {
  const connection = (await send("POST", "/mcp/init", {})) as string;
  try {
    const data = tool === "search_keyword" ? { query, label, limit: 25 } : { query, label };
    await send("POST", `/mcp/${tool}`, { connection_id: connection, data });
    return (await send("POST", "/mcp/collect", { connection_id: connection })) as Item[];
  } finally {
    await send("POST", "/mcp/close", { connection_id: connection }).catch(() => undefined);
  }
}
