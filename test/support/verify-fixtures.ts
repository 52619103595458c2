// A store for the integrity-check tests: a schema with every kind of state verify compares
// (INDEX, UNIQUE INDEX, UNIQUE edges, text for BM25, vectors), and a way to corrupt a closed
// store's LMDB databases directly.
import type { SchemaDescriptor, ValueType } from "../../core/schema.js";
import type { EdgeItem, NodeItem } from "../../core/items.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import { openDbs, type StoreDbs } from "../../runtime/store/dbs.js";
import { schema as graphSchema } from "./store-fixtures.js";
import { vectorSchema } from "./vector-fixtures.js";

const s = (name: "F64"): ValueType => ({ kind: "scalar", name });

/** store-fixtures' graph, vector-fixtures' vector types, and a type with neither text nor indexes. */
export const verifySchema: SchemaDescriptor = {
  nodes: [...graphSchema.nodes, { name: "Tag", fields: [{ name: "weight", type: s("F64"), index: "none", default: null }] }],
  vectors: vectorSchema.vectors,
  edges: [
    ...graphSchema.edges,
    { name: "Tagged", from: "User", to: "Tag", unique: false, fields: [] },
    { name: "About", from: "User", to: "Doc", unique: false, fields: [] },
    { name: "HasChunk", from: "Doc", to: "Chunk", unique: false, fields: [] },
  ],
};

export interface SmallGraph {
  alice: NodeItem;
  bob: NodeItem;
  post: NodeItem;
  tag: NodeItem;
  follows: EdgeItem;
  wrote: EdgeItem;
  knows: EdgeItem;
  tagged: EdgeItem;
  doc: NodeItem;
}

/** Two users, a post, a tag, one edge of each of Follows (UNIQUE), Wrote, Knows and Tagged, and a vector. */
export async function smallGraph(store: GraphStore): Promise<SmallGraph> {
  return store.write((db) => {
    const alice = db.addNode("User", { name: "Alice Smith", email: "a@x", age: 30 });
    const bob = db.addNode("User", { name: "Bob", email: "b@x", age: 40 });
    const post = db.addNode("Post", { title: "Hello world" });
    const tag = db.addNode("Tag", { weight: 1 });
    const follows = db.addEdge("Follows", {}, alice.id, bob.id);
    const wrote = db.addEdge("Wrote", {}, alice.id, post.id);
    const knows = db.addEdge("Knows", { code: "k1" }, alice.id, bob.id);
    const tagged = db.addEdge("Tagged", {}, alice.id, tag.id);
    const doc = db.addVector("Doc", [1, 0, 0], { slug: "d1", topic: "t" });
    return { alice, bob, post, tag, follows, wrote, knows, tagged, doc };
  });
}

/** Runs `change` in one write transaction on the LMDB databases of a closed store. */
export async function corrupt(dir: string, change: (dbs: StoreDbs) => void): Promise<void> {
  const dbs = openDbs(dir, undefined);
  try {
    dbs.env.transactionSync(() => change(dbs));
  } finally {
    await dbs.env.close();
  }
}
