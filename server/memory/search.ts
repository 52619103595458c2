// What search_nodes finds, and in which order. The rule:
//
//   found = the BM25 matches of the query (over name, entityType and observations)
//         ∪ the entities the reference server finds (the query a case-insensitive substring,
//           String.prototype.toLowerCase on both sides, of the name, the type or an observation)
//
//   order: the BM25 matches first, best score first (ties: oldest entity first); then the
//          substring-only matches in read_graph's order.
//
// So search_nodes finds everything the reference finds, for every query. It finds the same set
// when the query is one ASCII word (letters and digits) and the graph's text is ASCII: a BM25
// match then holds the word as a term, so it holds it as a substring too. It finds more
// (a superset) where BM25 does: for a query of several words, an entity holding any one of them
// (the reference needs the whole query verbatim); and for text past ASCII, the tokenizer's NFKC
// folding ("ﬁle" holds the term "file"; runtime/search/tokenizer.ts). No stemming: the memory
// store's BM25 index is opened with stemmer "none".
import type { StoredEntity } from "./graph.js";

/** Whether the reference server finds the entity for this query. */
export function substringMatch(query: string, entity: StoredEntity): boolean {
  const needle = query.toLowerCase();
  return (
    entity.name.toLowerCase().includes(needle) ||
    entity.entityType.toLowerCase().includes(needle) ||
    entity.observations.some((o) => o.toLowerCase().includes(needle))
  );
}

/** `ranked`: the BM25 matches, best first; `entities`: every entity in read_graph's order. */
export function rankMatches(query: string, ranked: readonly StoredEntity[], entities: readonly StoredEntity[]): StoredEntity[] {
  const found = new Set(ranked.map((e) => e.id));
  const rest = entities.filter((e) => !found.has(e.id) && substringMatch(query, e));
  return [...ranked, ...rest];
}
