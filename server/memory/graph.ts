// The knowledge graph of the MCP memory server (@modelcontextprotocol/server-memory) as its tools
// take and answer it, and the records the built-in schema (templates/memory/schema.hx) stores it
// in. Plain types, and the one error the reference server itself reports.
import { StrandError } from "../../core/errors.js";

export interface Entity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface Relation {
  from: string;
  to: string;
  relationType: string;
}

export interface KnowledgeGraph {
  entities: Entity[];
  relations: Relation[];
}

export interface ObservationAddition {
  entityName: string;
  contents: string[];
}

export interface ObservationResult {
  entityName: string;
  addedObservations: string[];
}

export interface ObservationDeletion {
  entityName: string;
  observations: string[];
}

/** An Entity node: an entity, or (placeholder) a name only relations mention. */
export interface StoredEntity extends Entity {
  id: string;
  seq: number;
  placeholder: boolean;
}

/** A Relation edge: its ends are Entity node ids. */
export interface StoredRelation {
  id: string;
  fromId: string;
  toId: string;
  relationType: string;
  seq: number;
}

/**
 * add_observations to a name that is no entity: NOT_FOUND, with the reference server's own
 * message, which the MCP tools answer as it does (plain text, not `{error, code}`).
 */
export function entityNotFound(name: string): StrandError {
  return new StrandError("NOT_FOUND", `Entity with name ${name} not found`);
}

/** An entity as the tools answer it: these three members, in this order. */
export function entityOf(stored: Entity): Entity {
  return { name: stored.name, entityType: stored.entityType, observations: [...stored.observations] };
}

/** The key of a relation: two relations with the same ends and type are the same relation. */
export function relationKey(relation: Relation): string {
  return JSON.stringify([relation.from, relation.to, relation.relationType]);
}
