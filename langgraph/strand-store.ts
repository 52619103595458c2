// StrandStore: LangGraph.js's long-term memory (a BaseStore) in a Strand server: namespaces,
// get/put/delete, search with a filter and, when `index` is set, a semantic query embedded by the
// server's embedder (the served project's default model), listNamespaces, and TTL. The semantics
// are InMemoryStore's except where server/langgraph/store-items.ts says otherwise; checked
// against it by a differential test (test/langgraph-store-differential.test.ts).
import {
  BaseStore,
  InvalidNamespaceError,
  type Item,
  type Operation,
  type OperationResults,
  type SearchItem,
  validateNamespace,
} from "@langchain/langgraph-checkpoint";
import { LangGraphClient, type StrandConnection } from "./http.js";
import { textsAtPath } from "./text-paths.js";

export interface StrandStoreOptions extends StrandConnection {
  /**
   * Which parts of a value are embedded for semantic search: JSON paths (`"text"`,
   * `"chunks[*].body"`, `"$"` for the whole value). Absent: no embedding, and a search's query is
   * ignored, as in InMemoryStore without an index.
   */
  index?: { fields?: string[] } | undefined;
  /** Items expire this many minutes after their last put (or read, with refreshOnRead). */
  ttl?: { defaultTtl?: number | null | undefined; refreshOnRead?: boolean | undefined } | undefined;
}

interface WireItem {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  created_at: number;
  updated_at: number;
  score?: number;
}

type WireResult = WireItem | WireItem[] | string[][] | null;

export class StrandStore extends BaseStore {
  private readonly client: LangGraphClient;
  private readonly fields: string[] | null;
  private readonly defaultTtl: number | null;
  private readonly refreshOnRead: boolean;

  constructor(options: StrandStoreOptions) {
    super();
    this.client = new LangGraphClient(options);
    this.fields = options.index === undefined ? null : (options.index.fields ?? ["$"]);
    this.defaultTtl = options.ttl?.defaultTtl ?? null;
    this.refreshOnRead = options.ttl?.refreshOnRead ?? true;
  }

  /** As BaseStore's put, with a TTL in minutes for this item (null: never expires; absent: the store's default). */
  override async put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    index?: false | string[],
    options?: { ttl?: number | null },
  ): Promise<void> {
    validateNamespace(namespace);
    await this.send([{ namespace, key, value, index }], options?.ttl);
  }

  /** As BaseStore's get; `refreshTtl: false` leaves the item's expiry where it is. */
  override async get(namespace: string[], key: string, options?: { refreshTtl?: boolean }): Promise<Item | null> {
    validateNamespace(namespace, { allowEmpty: true, allowReservedRoot: true });
    const [item] = await this.send([{ namespace, key }], undefined, options?.refreshTtl);
    return item as Item | null;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    return (await this.send(operations)) as OperationResults<Op>;
  }

  private async send(operations: readonly Operation[], ttl?: number | null, refreshTtl?: boolean): Promise<Array<Item | SearchItem[] | string[][] | null | undefined>> {
    const refresh = refreshTtl ?? this.refreshOnRead;
    const wire = operations.map((op) => this.wireOperation(op, ttl === undefined ? this.defaultTtl : ttl, refresh));
    const { results } = await this.client.post<{ results: WireResult[] }>("store/batch", { operations: wire });
    return results.map((result, i) => {
      if ("value" in operations[i]! && !("namespacePrefix" in operations[i]!)) return undefined;
      if (result === null) return null;
      if (!Array.isArray(result)) return item(result);
      return result.map((r) => (Array.isArray(r) ? r : searchItem(r))) as SearchItem[] | string[][];
    });
  }

  private wireOperation(op: Operation, ttl: number | null, refresh: boolean): object {
    if ("namespace" in op) checkNamespace(op.namespace);
    if ("namespacePrefix" in op) {
      if (op.namespacePrefix.length > 0) checkNamespace(op.namespacePrefix);
      return {
        op: "search",
        namespace_prefix: op.namespacePrefix,
        ...(op.filter !== undefined ? { filter: op.filter } : {}),
        limit: op.limit ?? 10,
        offset: op.offset ?? 0,
        ...(op.query !== undefined && this.fields !== null ? { query: op.query } : {}),
        refresh_ttl: refresh,
      };
    }
    if ("value" in op) {
      return { op: "put", namespace: op.namespace, key: op.key, value: op.value, texts: this.texts(op.value, op.index), ttl };
    }
    if ("key" in op) return { op: "get", namespace: op.namespace, key: op.key, refresh_ttl: refresh };
    return {
      op: "list_namespaces",
      match_conditions: (op.matchConditions ?? []).map((c) => ({ match_type: c.matchType, path: c.path })),
      ...(op.maxDepth !== undefined ? { max_depth: op.maxDepth } : {}),
      limit: op.limit,
      offset: op.offset,
    };
  }

  /** The texts of the value to embed, named as InMemoryStore names them (`path`, or `path.i` for each of several). */
  private texts(value: Record<string, unknown> | null, index: false | string[] | undefined): Array<{ path: string; text: string }> {
    if (value === null || index === false || this.fields === null) return [];
    const out: Array<{ path: string; text: string }> = [];
    for (const path of index ?? this.fields) {
      const texts = textsAtPath(value, path);
      if (texts.length === 1) out.push({ path, text: texts[0]! });
      else texts.forEach((text, i) => out.push({ path: `${path}.${i}`, text }));
    }
    return out;
  }
}

/** InMemoryStore's namespace rule for every operation (a ':' would be its path separator; Strand's too). */
function checkNamespace(namespace: string[]): void {
  validateNamespace(namespace, { allowReservedRoot: true });
  if (namespace.some((label) => label.includes(":"))) {
    throw new InvalidNamespaceError("Namespace labels cannot contain colons (':'), the InMemoryStore path separator.");
  }
}

function item(r: WireItem): Item {
  return { namespace: r.namespace, key: r.key, value: r.value, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at) };
}

function searchItem(r: WireItem): SearchItem {
  return r.score === undefined ? item(r) : { ...item(r), score: r.score };
}
