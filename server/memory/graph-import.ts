// `strand memory import`: a reference server's graph merged into the store in one transaction,
// so a failure on any item writes nothing. Merging makes it safe to run twice: an entity whose
// name is taken gets the observations it does not hold yet (as add_observations), a relation that
// exists is skipped (as create_relations). A file the reference's own bug wrote, with a name
// twice, so becomes one entity with the observations of both. An item the store refuses (a value
// too large for it) fails the import with the item's line in the message.
import { StrandError, isStrandError } from "../../core/errors.js";
import type { QueryContext } from "../../core/query-context.js";
import type { Entity, Relation } from "./graph.js";
import { addObservations, createEntities, createRelations } from "./graph-writes.js";
import type { MemoryQueries } from "./memory-queries.js";

export type ImportItem = { line: number; kind: "entity"; entity: Entity } | { line: number; kind: "relation"; relation: Relation };

export interface ImportCounts {
  /** Entities in the file, and those that were new. */
  entities: number;
  newEntities: number;
  /** Observations added to entities that were there already (or named twice in the file). */
  mergedObservations: number;
  relations: number;
  newRelations: number;
}

export function importGraph(q: MemoryQueries, db: QueryContext, items: readonly ImportItem[]): ImportCounts {
  const counts: ImportCounts = { entities: 0, newEntities: 0, mergedObservations: 0, relations: 0, newRelations: 0 };
  for (const item of items) {
    try {
      if (item.kind === "entity") {
        counts.entities++;
        if (createEntities(q, db, [item.entity]).length > 0) counts.newEntities++;
        else {
          const [merged] = addObservations(q, db, [{ entityName: item.entity.name, contents: item.entity.observations }]);
          counts.mergedObservations += merged?.addedObservations.length ?? 0;
        }
      } else {
        counts.relations++;
        counts.newRelations += createRelations(q, db, [item.relation]).length;
      }
    } catch (error) {
      if (!isStrandError(error)) throw error;
      throw new StrandError(error.code, `line ${item.line}: ${error.message}`);
    }
  }
  return counts;
}
