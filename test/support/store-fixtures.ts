// A schema and temp-dir helpers shared by the store and context tests.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SchemaDescriptor, ValueType } from "../../core/schema.js";
import { GraphStore } from "../../runtime/graph-store.js";

const s = (name: "String" | "Boolean" | "I32" | "U8" | "U32" | "F64" | "ID" | "Date" | "I64"): ValueType => ({
  kind: "scalar",
  name,
});

export const schema: SchemaDescriptor = {
  nodes: [
    {
      name: "User",
      fields: [
        { name: "name", type: s("String"), index: "none", default: null },
        { name: "email", type: s("String"), index: "unique", default: null },
        { name: "age", type: s("U8"), index: "index", default: null },
        { name: "active", type: s("Boolean"), index: "none", default: { kind: "literal", value: true } },
        { name: "created", type: s("Date"), index: "none", default: { kind: "now" } },
        { name: "tags", type: { kind: "array", element: s("String") }, index: "none", default: null },
        {
          name: "address",
          type: {
            kind: "object",
            fields: [
              { name: "city", type: s("String"), optional: false },
              { name: "zip", type: s("String"), optional: true },
            ],
          },
          index: "none",
          default: null,
        },
      ],
    },
    {
      name: "Post",
      fields: [
        { name: "title", type: s("String"), index: "index", default: null },
        { name: "score", type: s("F64"), index: "none", default: null },
      ],
    },
    { name: "City", fields: [{ name: "name", type: s("String"), index: "none", default: null }] },
  ],
  vectors: [],
  edges: [
    {
      name: "Follows",
      from: "User",
      to: "User",
      unique: true,
      fields: [
        { name: "weight", type: s("F64"), index: "none", default: { kind: "literal", value: 1 } },
        { name: "since", type: s("Date"), index: "none", default: null },
      ],
    },
    { name: "Wrote", from: "User", to: "Post", unique: false, fields: [] },
    {
      name: "Knows",
      from: "User",
      to: "User",
      unique: false,
      fields: [{ name: "code", type: s("String"), index: "unique", default: null }],
    },
  ],
};

export function tempDir(prefix = "strand-store-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Opens a store in a fresh temp dir; `cleanup` closes it and removes the dir. */
export function openTempStore(
  s: SchemaDescriptor = schema,
  options: Partial<Parameters<typeof GraphStore.open>[0]> = {},
): { store: GraphStore; dir: string; cleanup: () => Promise<void> } {
  const dir = tempDir();
  const store = GraphStore.open({ path: dir, schema: s, ...options });
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      removeDir(dir);
    },
  };
}
