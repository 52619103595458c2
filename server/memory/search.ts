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
//
// With an embedding model (entity-vectors.ts) the rule is hybrid:
//
//   found = the BM25 matches ∪ the VECTOR_JOIN entities whose texts are nearest the query's
//           embedding ∪ the reference's substring matches
//
//   order: by reciprocal rank fusion (RRF, k = RRF_K) of two rankings, the BM25 matches (best
//          first) and the VECTOR_CANDIDATES nearest texts (nearest first): an entity scores
//          1/(k + rank) in each it is in, and those with a score come first, best first (ties:
//          oldest entity first); then the substring matches in neither, in read_graph's order.
//
// So it still finds everything the reference finds, and more. The nearest few join the found set
// whatever their words: that is what makes the search semantic (a query "automobile" finds the
// entity that observes "drives a car", which no word of it matches), and a memory's agent asks
// search_nodes for what it may know about something. Only a few: the nearest texts are always
// there, even for a query the memory knows nothing about, so each one added is noise then (with
// its relations); VECTOR_JOIN bounds that, and ranks 4 to 10 of the vector ranking only reorder
// what the words found. No similarity floor: what a near cosine is differs from model to model.
import type { StoredEntity } from "./graph.js";

/** The k of reciprocal rank fusion: 60, as RerankRRF (and the paper) has it. */
export const RRF_K = 60;
/** How many of the nearest texts make the vector ranking. */
export const VECTOR_CANDIDATES = 10;
/** How many of them are found for their meaning alone (the first of the vector ranking). */
export const VECTOR_JOIN = 3;

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

/**
 * The hybrid rule above. `ranked`: the BM25 matches, best first; `nearest`: the entities of the
 * VECTOR_CANDIDATES nearest texts, nearest first; `entities`: every entity in read_graph's order.
 */
export function fuseMatches(
  query: string,
  ranked: readonly StoredEntity[],
  nearest: readonly StoredEntity[],
  entities: readonly StoredEntity[],
): StoredEntity[] {
  const scored = new Map<string, { entity: StoredEntity; score: number }>();
  const add = (entity: StoredEntity, rank: number): void => {
    const held = scored.get(entity.id);
    if (held === undefined) scored.set(entity.id, { entity, score: 1 / (RRF_K + rank) });
    else held.score += 1 / (RRF_K + rank);
  };
  for (const [i, entity] of ranked.entries()) add(entity, i + 1);
  for (const [i, entity] of nearest.slice(0, VECTOR_CANDIDATES).entries()) {
    if (i < VECTOR_JOIN || scored.has(entity.id) || substringMatch(query, entity)) add(entity, i + 1);
  }
  const fused = [...scored.values()].sort((a, b) => b.score - a.score || a.entity.seq - b.entity.seq).map((s) => s.entity);
  const rest = entities.filter((e) => !scored.has(e.id) && substringMatch(query, e));
  return [...fused, ...rest];
}
