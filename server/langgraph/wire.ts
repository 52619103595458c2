// What the LangGraph routes (routes.ts) accept and answer, as zod schemas: a body that does not
// fit is refused with the first thing wrong, named by its path (server/mcp/input-parse.ts), before
// anything is read or written. The client (langgraph/ in this package) sends exactly these.
import * as z from "zod/v4";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A value as the client's serializer wrote it: its type name and its bytes in base64. */
export const blob = z.strictObject({
  type: z.string().describe("the serializer's type name"),
  data: z.string().regex(BASE64, "base64").describe("base64 bytes"),
});
export type Blob = z.output<typeof blob>;

const id = (what: string) => z.string().min(1).describe(what);
const ns = z.string().default("").describe("a checkpoint namespace");
const count = z.number().int().min(0).describe("a whole number ≥ 0");

export const getCheckpointBody = z.strictObject({
  thread_id: id("a thread id"),
  checkpoint_ns: ns,
  checkpoint_id: id("a checkpoint id").optional(),
});

const primitive = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const listCheckpointsBody = z.strictObject({
  thread_id: id("a thread id").optional(),
  checkpoint_ns: z.string().optional().describe("a checkpoint namespace"),
  checkpoint_id: id("a checkpoint id").optional(),
  before_id: id("a checkpoint id").optional(),
  // A member whose value is an object or a list matches nothing (the client compares with ===).
  filter: z.record(z.string(), z.unknown()).optional(),
  limit: count.optional(),
});

export const putCheckpointBody = z.strictObject({
  thread_id: id("a thread id"),
  checkpoint_ns: ns,
  checkpoint_id: id("a checkpoint id"),
  parent_checkpoint_id: id("a checkpoint id").optional(),
  checkpoint: blob,
  metadata: blob,
  filterable: z.record(z.string(), primitive).default({}),
  /** The checkpoint's channel_versions: which version of each channel it holds. */
  channel_versions: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
  /** The values of the channels this checkpoint changed, each at its new version. */
  channel_values: z.array(z.strictObject({ channel: z.string(), version: z.union([z.string(), z.number()]), value: blob })).default([]),
});

export const putWritesBody = z.strictObject({
  thread_id: id("a thread id"),
  checkpoint_ns: ns,
  checkpoint_id: id("a checkpoint id"),
  task_id: id("a task id"),
  task_path: z.string().default(""),
  writes: z.array(
    z.strictObject({
      idx: z.number().int().describe("a whole number"),
      channel: z.string().describe("a channel name"),
      value: blob,
    }),
  ),
});

export const deleteThreadBody = z.strictObject({ thread_id: id("a thread id") });

export interface PendingWriteRecord {
  task_id: string;
  channel: string;
  task_path: string;
  idx: number;
  value: Blob;
}

export interface CheckpointRecord {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: Blob;
  metadata: Blob;
  /** The values of the channels the checkpoint holds, at its versions (the ones stored). */
  channel_values: Array<{ channel: string; value: Blob }>;
  pending_writes: PendingWriteRecord[];
}

// ---- the store

// The labels LangGraph's stores accept: no empty label, no '.', ':' or NUL (validateNamespace).
const label = z
  .string()
  .regex(/^[^.:\0]+$/, "a label without '.', ':' or NUL")
  .describe("a namespace label (not empty; no '.', ':' or NUL)");
const namespace = z.array(label).min(1).describe("a namespace (a non-empty list of labels)");
const ttl = z.number().positive().nullable().describe("minutes (null: never expires)");

export const storeOperation = z.union([
  z.strictObject({ op: z.literal("get"), namespace, key: z.string().describe("a key"), refresh_ttl: z.boolean().default(true) }),
  z.strictObject({
    op: z.literal("put"),
    namespace,
    key: z.string().describe("a key"),
    value: z.record(z.string(), z.unknown()).nullable().describe("a JSON object, or null to delete"),
    // The texts to embed, one per path of the value the client's index names (langgraph/).
    texts: z.array(z.strictObject({ path: z.string(), text: z.string() })).default([]),
    ttl: ttl.optional(),
  }),
  z.strictObject({
    op: z.literal("search"),
    namespace_prefix: z.array(label).describe("a namespace prefix"),
    filter: z.record(z.string(), z.unknown()).optional(),
    limit: count.default(10),
    offset: count.default(0),
    query: z.string().optional(),
    refresh_ttl: z.boolean().default(true),
  }),
  z.strictObject({
    op: z.literal("list_namespaces"),
    match_conditions: z.array(z.strictObject({ match_type: z.enum(["prefix", "suffix"]), path: z.array(z.string()) })).default([]),
    max_depth: z.number().int().min(1).optional(),
    limit: count.default(100),
    offset: count.default(0),
  }),
]);
export type StoreOperation = z.output<typeof storeOperation>;

export const storeBatchBody = z.strictObject({ operations: z.array(storeOperation) });

export interface StoreItemRecord {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  created_at: number;
  updated_at: number;
  score?: number;
}

export type StoreResult = StoreItemRecord | StoreItemRecord[] | string[][] | null;
