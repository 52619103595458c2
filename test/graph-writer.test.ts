// The graph writer's fan-out (runtime/write/graph-writer.ts), seen from its hooks and the read
// cache marks: which change reaches the search and vector hooks, and which keys are marked.
import { afterEach, describe, expect, test } from "vitest";
import type { NodeItem } from "../core/items.js";
import { openDbs, type StoreDbs } from "../runtime/store/dbs.js";
import { listKey } from "../runtime/adjacency/lists.js";
import { adjacencyKey, ReadCache } from "../runtime/store/read-cache.js";
import { SchemaInfo } from "../runtime/store/schema-info.js";
import { GraphWriter, type WriterHooks } from "../runtime/write/graph-writer.js";
import type { SearchHook, VectorHook } from "../runtime/write/hooks.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { vectorSchema } from "./support/vector-fixtures.js";
import { itemKey, labelRange } from "../runtime/store/keys.js";

/** Every hook call, as "search.added Doc" / "vector.removed Doc" ... */
function recordingHooks(calls: string[]): WriterHooks {
  const search: SearchHook = {
    added: (r) => void calls.push(`search.added ${r.label}`),
    replaced: (_, r) => void calls.push(`search.replaced ${r.label}`),
    removed: (r) => void calls.push(`search.removed ${r.label}`),
    flush: () => {},
    discard: () => {},
  };
  const vectors: VectorHook = {
    added: (info, _, v) => void calls.push(`vector.added ${info.name} [${v.join(",")}]`),
    replaced: (info) => void calls.push(`vector.replaced ${info.name}`),
    removed: (info) => void calls.push(`vector.removed ${info.name}`),
  };
  return { search, vectors };
}

let dir: string;
let dbs: StoreDbs;

function open(): { schema: SchemaInfo; cache: ReadCache } {
  dir = tempDir("strand-writer-");
  dbs = openDbs(dir, undefined);
  return { schema: new SchemaInfo(vectorSchema), cache: new ReadCache(100) };
}

afterEach(async () => {
  await dbs.env.close();
  removeDir(dir);
});

describe("GraphWriter", () => {
  test("each record change reaches the hooks of its kind, and marks what it changes in the cache", () => {
    const { schema, cache } = open();
    const calls: string[] = [];
    const touched: string[] = [];
    const writer = new GraphWriter(dbs, schema, cache, touched, recordingHooks(calls));
    dbs.env.transactionSync(() => {
      const author = writer.addNode("Author", { name: "ada" });
      const doc = writer.addVector("Doc", [1, 0], { title: "t", slug: "s" });
      const edge = writer.addEdge("Wrote", {}, author.id, doc.id);
      expect(calls).toEqual(["search.added Author", "vector.added Doc [1,0]", "search.added Doc"]);
      // New records need no mark; the two adjacency lists the edge extends do.
      expect(touched).toEqual([adjacencyKey("out", author.id, "Wrote"), adjacencyKey("in", doc.id, "Wrote")]);

      calls.length = 0;
      touched.length = 0;
      writer.update([author], { name: "ada l." }, "N");
      writer.update([doc], { title: "u" }, "N");
      writer.update([edge], {}, "E");
      expect(calls).toEqual(["search.replaced Author", "vector.replaced Doc", "search.replaced Doc"]);
      expect(touched).toEqual([author.id, doc.id, edge.id]);

      calls.length = 0;
      touched.length = 0;
      writer.drop([author]);
      // The node's edge goes first (no hook: edges have no documents), then the node.
      expect(calls).toEqual(["search.removed Author"]);
      expect(touched).toEqual([edge.id, adjacencyKey("out", author.id, "Wrote"), author.id, adjacencyKey("in", doc.id, "Wrote")]);
      expect(dbs.in.get(listKey(doc.id, "Wrote"))).toBeUndefined();
      expect(dbs.edges.get(itemKey("Wrote", edge.id))).toBeUndefined();

      calls.length = 0;
      writer.dropVector(doc);
      expect(calls).toEqual(["vector.removed Doc", "search.removed Doc"]);
      expect(dbs.nodes.get(itemKey("Doc", doc.id))).toBeUndefined();
    });
  });

  test("without a vector hook (the open's migrations) no vector can change", () => {
    const { schema, cache } = open();
    const writer = new GraphWriter(dbs, schema, cache, [], { search: null, vectors: null });
    let author: NodeItem | undefined;
    dbs.env.transactionSync(() => {
      author = writer.addNode("Author", { name: "ada" });
    });
    expect(dbs.nodes.get(itemKey("Author", author!.id))).toEqual(author);
    expect(() => dbs.env.transactionSync(() => writer.addVector("Doc", [1, 0], {}))).toThrow("V::Doc: vectors cannot change in this write");
    expect([...dbs.nodes.getKeys(labelRange("Doc"))]).toEqual([]);
  });
});
