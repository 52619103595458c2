// The scan benchmark's data, written straight through GraphStore in batches (one durable write
// per batch): `count` Person nodes with seeded-random fields, each with `knows` Knows out-edges to
// seeded-random people (self-loops allowed).
import type { GraphStore } from "../runtime/graph-store.js";
import { randomIndex, type Random } from "./random.js";
import { KNOWS, PERSON } from "./scan-project.js";

const NODE_BATCH = 10_000;
const EDGE_BATCH = 10_000;

export const CITIES = ["Amsterdam", "Berlin", "Cairo", "Delhi", "Lima", "Lyon", "Nairobi", "Oslo", "Quito", "Seoul"] as const;

export interface PersonProps {
  [field: string]: string | number;
  name: string;
  /** 0..99 */
  age: number;
  city: string;
  /** 0..100 with two decimals */
  score: number;
}

export function personProps(i: number, random: Random): PersonProps {
  return {
    name: `person ${i}`,
    age: randomIndex(random, 100),
    city: CITIES[randomIndex(random, CITIES.length)]!,
    score: randomIndex(random, 10_001) / 100,
  };
}

/** Adds the people and their edges; returns the people's ids in creation order. */
export async function fillPeople(store: GraphStore, count: number, knows: number, random: Random): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += NODE_BATCH) {
    const end = Math.min(count, start + NODE_BATCH);
    const props = Array.from({ length: end - start }, (_, k) => personProps(start + k, random));
    const batch = await store.write((db) => props.map((p) => db.addNode(PERSON, p).id));
    ids.push(...batch);
  }
  const edges = count * knows;
  for (let start = 0; start < edges; start += EDGE_BATCH) {
    const end = Math.min(edges, start + EDGE_BATCH);
    const targets = Array.from({ length: end - start }, () => randomIndex(random, count));
    await store.write((db) => {
      for (let e = start; e < end; e++) db.addEdge(KNOWS, {}, ids[Math.floor(e / knows)]!, ids[targets[e - start]!]!);
    });
  }
  return ids;
}
