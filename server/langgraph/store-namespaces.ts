// list_namespaces of the LangGraph store: the namespaces that hold at least one live item, kept
// by every match condition (a prefix or suffix of labels, "*" matching any one label), cut to
// max_depth labels (duplicates then merged), sorted as LangGraph's InMemoryStore sorts them
// (labels joined by ':', compared with localeCompare), then paged.
export interface MatchCondition {
  match_type: "prefix" | "suffix";
  path: string[];
}

export interface ListNamespaces {
  match_conditions: MatchCondition[];
  max_depth?: number | undefined;
  limit: number;
  offset: number;
}

export function listNamespaces(namespaces: readonly string[][], op: ListNamespaces): string[][] {
  let kept = namespaces.filter((ns) => op.match_conditions.every((c) => matchesCondition(c, ns)));
  if (op.max_depth !== undefined) {
    const depth = op.max_depth;
    const cut = new Map<string, string[]>();
    for (const ns of kept) {
      const head = ns.slice(0, depth);
      cut.set(JSON.stringify(head), head);
    }
    kept = [...cut.values()];
  }
  kept.sort((a, b) => a.join(":").localeCompare(b.join(":")));
  return kept.slice(op.offset, op.offset + op.limit);
}

function matchesCondition(condition: MatchCondition, ns: readonly string[]): boolean {
  const { path } = condition;
  if (path.length > ns.length) return false;
  const start = condition.match_type === "prefix" ? 0 : ns.length - path.length;
  return path.every((label, i) => label === "*" || ns[start + i] === label);
}
