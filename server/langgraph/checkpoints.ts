// StrandSaver's checkpoints and pending writes over the LangGraph store: each call one read
// snapshot or one write transaction. A channel's value is stored once per version, not once per
// checkpoint: a put brings the values of the channels it changed, and a checkpoint read gathers
// the values at the versions it names. The ordering the LangGraph contract asks for is kept here:
// a thread's checkpoints newest first (ids are uuid6, so newest is greatest), as MemorySaver
// orders them; pending writes come back in key order and the client sorts them by
// writesSortKey, the package's own comparator (langgraph/strand-saver.ts).
import type { PropValue } from "../../core/items.js";
import type { QueryContext } from "../../core/query-context.js";
import type { LangGraphQueries } from "./langgraph-queries.js";
import type { CheckpointRecord, PendingWriteRecord } from "./wire.js";
import type * as wire from "./wire.js";
import type { z } from "zod/v4";

type GetBody = z.output<typeof wire.getCheckpointBody>;
type ListBody = z.output<typeof wire.listCheckpointsBody>;
type PutBody = z.output<typeof wire.putCheckpointBody>;
type PutWritesBody = z.output<typeof wire.putWritesBody>;

const checkpointKey = (thread: string, ns: string, id: string) => JSON.stringify([thread, ns, id]);
const channelValueKey = (thread: string, ns: string, channel: string, version: string | number) =>
  JSON.stringify([thread, ns, channel, version]);

interface StoredCheckpoint {
  key: string;
  thread: string;
  ns: string;
  checkpointId: string;
  parentId: string;
  checkpoint: wire.Blob;
  metadata: wire.Blob;
  filterable: Record<string, unknown>;
  channelVersions: Record<string, string | number>;
}

export function getCheckpoint(q: LangGraphQueries, db: QueryContext, body: GetBody): CheckpointRecord | null {
  if (body.checkpoint_id !== undefined) {
    const found = q.run(
      db,
      "CheckpointByKey",
      { key: checkpointKey(body.thread_id, body.checkpoint_ns, body.checkpoint_id) },
      "checkpoint",
    );
    return found === null ? null : withWrites(q, db, stored(q, found));
  }
  const latest = threadCheckpoints(q, db, body.thread_id).find((c) => c.ns === body.checkpoint_ns);
  return latest === undefined ? null : withWrites(q, db, latest);
}

export function listCheckpoints(q: LangGraphQueries, db: QueryContext, body: ListBody): CheckpointRecord[] {
  const all = body.thread_id !== undefined ? threadCheckpoints(q, db, body.thread_id) : allCheckpoints(q, db);
  const out: CheckpointRecord[] = [];
  let left = body.limit ?? Number.POSITIVE_INFINITY;
  for (const c of all) {
    if (left <= 0) break;
    if (body.checkpoint_ns !== undefined && c.ns !== body.checkpoint_ns) continue;
    if (body.checkpoint_id !== undefined && c.checkpointId !== body.checkpoint_id) continue;
    if (body.before_id !== undefined && c.checkpointId >= body.before_id) continue;
    if (body.filter !== undefined && !matches(c.filterable, body.filter)) continue;
    out.push(withWrites(q, db, c));
    left--;
  }
  return out;
}

/** Every metadata member the filter names equals its value (=== on primitives: a list or object matches nothing). */
function matches(filterable: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(
    ([key, value]) => Object.hasOwn(filterable, key) && (value === null || typeof value !== "object") && filterable[key] === value,
  );
}

export function putCheckpoint(q: LangGraphQueries, db: QueryContext, body: PutBody): void {
  q.run(db, "PutCheckpoint", {
    key: checkpointKey(body.thread_id, body.checkpoint_ns, body.checkpoint_id),
    thread: body.thread_id,
    ns: body.checkpoint_ns,
    checkpointId: body.checkpoint_id,
    parentId: body.parent_checkpoint_id ?? "",
    checkpointType: body.checkpoint.type,
    checkpoint: body.checkpoint.data,
    metadataType: body.metadata.type,
    metadata: body.metadata.data,
    filterable: JSON.stringify(body.filterable),
    channelVersions: JSON.stringify(body.channel_versions),
  });
  for (const v of body.channel_values) {
    q.run(db, "PutChannelValue", {
      key: channelValueKey(body.thread_id, body.checkpoint_ns, v.channel, v.version),
      thread: body.thread_id,
      valueType: v.value.type,
      value: v.value.data,
    });
  }
}

/**
 * A task's writes against a checkpoint. A regular write (idx ≥ 0) already stored for the same
 * task and index is kept, so a retried task does not change what it wrote; a special write
 * (negative idx: an error, an interrupt) replaces the stored one, as MemorySaver does.
 */
export function putWrites(q: LangGraphQueries, db: QueryContext, body: PutWritesBody): void {
  const checkpoint = checkpointKey(body.thread_id, body.checkpoint_ns, body.checkpoint_id);
  for (const w of body.writes) {
    const key = JSON.stringify([body.thread_id, body.checkpoint_ns, body.checkpoint_id, body.task_id, w.idx]);
    if (w.idx >= 0 && q.run(db, "WriteByKey", { key }, "write") !== null) continue;
    q.run(db, "PutWrite", {
      key,
      checkpoint,
      thread: body.thread_id,
      taskId: body.task_id,
      idx: w.idx,
      channel: w.channel,
      taskPath: body.task_path,
      valueType: w.value.type,
      value: w.value.data,
    });
  }
}

export function deleteThread(q: LangGraphQueries, db: QueryContext, thread: string): void {
  q.run(db, "DropThread", { thread });
}

/** A thread's checkpoints, by namespace in first-stored order, newest first within each. */
function threadCheckpoints(q: LangGraphQueries, db: QueryContext, thread: string): StoredCheckpoint[] {
  return newestFirst(q.list(q.run(db, "CheckpointsOfThread", { thread }, "checkpoints")).map((c) => stored(q, c)));
}

function allCheckpoints(q: LangGraphQueries, db: QueryContext): StoredCheckpoint[] {
  return newestFirst(q.list(q.run(db, "AllCheckpoints", {}, "checkpoints")).map((c) => stored(q, c)));
}

/** Grouped by thread, then namespace (each in the order first met), newest id first in each group. */
function newestFirst(checkpoints: StoredCheckpoint[]): StoredCheckpoint[] {
  const groups = new Map<string, StoredCheckpoint[]>();
  for (const c of checkpoints) {
    const group = JSON.stringify([c.thread, c.ns]);
    const list = groups.get(group);
    if (list === undefined) groups.set(group, [c]);
    else list.push(c);
  }
  const out: StoredCheckpoint[] = [];
  for (const list of groups.values())
    out.push(...list.sort((a, b) => (a.checkpointId < b.checkpointId ? 1 : a.checkpointId > b.checkpointId ? -1 : 0)));
  return out;
}

function stored(q: LangGraphQueries, value: unknown): StoredCheckpoint {
  const r = q.record(value);
  return {
    key: q.text(r, "key"),
    thread: q.text(r, "thread"),
    ns: q.text(r, "ns"),
    checkpointId: q.text(r, "checkpointId"),
    parentId: q.text(r, "parentId"),
    checkpoint: { type: q.text(r, "checkpointType"), data: q.text(r, "checkpoint") },
    metadata: { type: q.text(r, "metadataType"), data: q.text(r, "metadata") },
    filterable: JSON.parse(q.text(r, "filterable")) as Record<string, unknown>,
    channelVersions: JSON.parse(q.text(r, "channelVersions")) as Record<string, string | number>,
  };
}

function withWrites(q: LangGraphQueries, db: QueryContext, c: StoredCheckpoint): CheckpointRecord {
  const writes = q.list(q.run(db, "WritesOfCheckpoint", { checkpoint: c.key }, "writes")).map((w) => pendingWrite(q, q.record(w)));
  const channelValues: CheckpointRecord["channel_values"] = [];
  for (const [channel, version] of Object.entries(c.channelVersions)) {
    const found = q.run(db, "ChannelValueByKey", { key: channelValueKey(c.thread, c.ns, channel, version) }, "value");
    if (found === null) continue;
    const r = q.record(found);
    channelValues.push({ channel, value: { type: q.text(r, "valueType"), data: q.text(r, "value") } });
  }
  return {
    thread_id: c.thread,
    checkpoint_ns: c.ns,
    checkpoint_id: c.checkpointId,
    parent_checkpoint_id: c.parentId === "" ? null : c.parentId,
    checkpoint: c.checkpoint,
    metadata: c.metadata,
    channel_values: channelValues,
    pending_writes: writes,
  };
}

function pendingWrite(q: LangGraphQueries, r: Record<string, PropValue>): PendingWriteRecord {
  return {
    task_id: q.text(r, "taskId"),
    channel: q.text(r, "channel"),
    task_path: q.text(r, "taskPath"),
    idx: q.number(r, "idx"),
    value: { type: q.text(r, "valueType"), data: q.text(r, "value") },
  };
}
