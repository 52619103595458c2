// The text vectors of a memory with an embedding model (`strand memory --embedding-model`): each
// entity's text (entityText: its name, entityType and observations) embedded and kept as a
// V::EntityText linked from the entity (E::EntityVector; templates/memory/schema.hx), for
// search_nodes by meaning (search.ts). Without a model none of this runs and the memory is as it
// was: no vector is written, search_nodes ranks by BM25 alone.
//
// When a vector is written: in the write transaction that changes its entity. A tool call runs
// on queries that record the entities it touches (MemoryQueries.recording); before it commits,
// `sync` gives each touched entity the vector of its new text (a placeholder, or an entity whose
// text is blank, gets none; a dropped entity's vector went with it: DropEntity). Embedding calls
// are never made inside the transaction (the store's write function is synchronous, and a
// provider is a network call): the texts a call will need are embedded first where they are known
// (create_entities, import: the entities given), and a text `sync` does not find embedded
// (add_observations, delete_observations: the text the merge makes) throws TextsMissing, which
// rolls the attempt back; the texts are embedded and the call runs again, as the query runner
// does for Embed(..) (runtime/query/query-runner.ts). So an entity and its vector always commit
// together, and a provider failure (EMBEDDING_FAILED) fails the call, writing nothing.
//
// Entities without a current vector: a store written before it had a model (or while it had
// none, or with another model: `digest` covers the model and the text) is brought up to date
// when it is opened with one (`stale` + MemoryService.refreshVectors), eagerly, so the first
// search_nodes already finds every entity by meaning. The dimension of a V type is fixed by its
// first vector: a model of another dimension than the stored vectors' is refused at open.
import { createHash } from "node:crypto";
import { StrandError } from "../../core/errors.js";
import type { QueryContext } from "../../core/query-context.js";
import type { TextEmbedder } from "../../runtime/embed/types.js";
import { EmbeddingCache } from "../../runtime/query/query-runner.js";
import type { Entity, StoredEntity } from "./graph.js";
import type { EntityChanges, MemoryQueries } from "./memory-queries.js";

/**
 * The longest text embedded, in UTF-16 units: the rest of an entity's observations is left out
 * of its vector (BM25 still holds them). Providers refuse inputs past their token limit (8191
 * tokens for OpenAI's models); 6000 characters stay under it for most text.
 */
export const MAX_TEXT_CHARS = 6000;

/** Query texts kept embedded: an agent often searches for the same words again. */
const QUERY_CACHE_ENTRIES = 1000;

/** What is embedded of an entity: its name, its type and its observations, a line each. */
export function entityText(entity: Entity): string {
  const text = [entity.name, entity.entityType, ...entity.observations].join("\n");
  if (text.length <= MAX_TEXT_CHARS) return text;
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT_CHARS - 1]!) ? MAX_TEXT_CHARS - 1 : MAX_TEXT_CHARS;
  return text.slice(0, end);
}

/** Thrown inside a write transaction (rolling it back) when texts it needs are not embedded yet. */
export class TextsMissing extends Error {
  constructor(readonly texts: readonly string[]) {
    super(`${texts.length} entity texts are not embedded yet: the write is retried after embedding`);
    this.name = "TextsMissing";
  }
}

/** Embeddings by text, gathered for one write (across its attempts). */
export type Embedded = Map<string, number[]>;

export class EntityVectors {
  private readonly queries = new EmbeddingCache(QUERY_CACHE_ENTRIES);

  constructor(private readonly embedder: TextEmbedder & { readonly model: string }) {}

  get model(): string {
    return this.embedder.model;
  }

  /** Of the model and the text, 48 bits: the stored vector is current when its digest is this. */
  digest(text: string): number {
    return createHash("sha256").update(this.model).update("\u0000").update(text).digest().readUIntBE(0, 6);
  }

  /** Embeds the texts `into` does not hold yet (blank ones never: providers refuse them). */
  async embed(texts: Iterable<string>, into: Embedded): Promise<void> {
    const needed = [...new Set(texts)].filter((t) => !into.has(t) && !blank(t));
    if (needed.length === 0) return;
    const vectors = await this.embedder.embed(needed);
    if (vectors.length !== needed.length)
      throw new StrandError("EMBEDDING_FAILED", `${this.model} gave ${vectors.length} embeddings for ${needed.length} texts`);
    for (const [i, text] of needed.entries()) into.set(text, vectors[i]!);
  }

  /** The embedding of a search query; null for a blank one (no text to compare). */
  async queryVector(query: string): Promise<number[] | null> {
    if (blank(query)) return null;
    const cached = this.queries.get(query, this.model);
    if (cached !== undefined) return cached;
    const [vector] = await this.embedder.embed([query]);
    if (vector === undefined) throw new StrandError("EMBEDDING_FAILED", `${this.model} gave no embedding for the query`);
    this.queries.set(query, this.model, vector);
    return vector;
  }

  /**
   * Inside the write transaction, before it commits: each entity in `changes` gets the vector of
   * its text as it now is (from `embedded`), replacing a stale one. Throws TextsMissing, after
   * looking at every entity, when some texts are not in `embedded`.
   */
  sync(q: MemoryQueries, db: QueryContext, changes: EntityChanges, embedded: Embedded): void {
    const missing: string[] = [];
    for (const id of changes.changed) {
      if (changes.dropped.has(id)) continue;
      const entity = q.entityById(db, id);
      const text = entityText(entity);
      const held = q.entityTextOf(db, id);
      if (entity.placeholder || blank(text)) {
        for (const vector of held) q.dropEntityText(db, vector.id);
        continue;
      }
      const digest = this.digest(text);
      if (held.length === 1 && held[0]!.digest === digest) continue;
      const vector = embedded.get(text);
      if (vector === undefined) {
        missing.push(text);
        continue;
      }
      for (const old of held) q.dropEntityText(db, old.id);
      q.addEntityText(db, id, vector, digest);
    }
    if (missing.length > 0) throw new TextsMissing(missing);
  }

  /** The entities (not placeholders) whose vector is missing or stale, with their texts, oldest first. */
  stale(q: MemoryQueries, db: QueryContext): { id: string; text: string }[] {
    const out: { id: string; text: string }[] = [];
    const entities = q.allEntities(db).filter((e: StoredEntity) => !e.placeholder);
    for (const entity of entities.sort((a, b) => a.seq - b.seq)) {
      const text = entityText(entity);
      const held = q.entityTextOf(db, entity.id);
      const current = blank(text) ? held.length === 0 : held.length === 1 && held[0]!.digest === this.digest(text);
      if (!current) out.push({ id: entity.id, text });
    }
    return out;
  }

  /** DIMENSION_MISMATCH when the store holds vectors of another dimension than `vector`'s. */
  checkDimension(q: MemoryQueries, db: QueryContext, vector: readonly number[]): void {
    const held = q.entityTextDimension(db);
    if (held === null || held === vector.length) return;
    throw new StrandError(
      "DIMENSION_MISMATCH",
      `the memory's entity vectors have ${held} dimensions and the embedding model ${this.model} gives ${vector.length}: ` +
        "open it with the model that made them, or give the memory a new --data directory",
    );
  }
}

function blank(text: string): boolean {
  return text.trim() === "";
}
