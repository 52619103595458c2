// StrandSaver: LangGraph.js's short-term memory (a BaseCheckpointSaver) in a Strand server. The
// server keeps each checkpoint and pending write as the serializer's bytes, durable once
// acknowledged; this class serializes, and orders pending writes by the package's own
// writesSortKey comparator. Checked by @langchain/langgraph-checkpoint-validation, unchanged
// (test/langgraph-saver.test.ts).
import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  compareWritesSortKeys,
  copyCheckpoint,
  getCheckpointId,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
  writesSortKey,
} from "@langchain/langgraph-checkpoint";
import { fromBase64, LangGraphClient, type StrandConnection, toBase64 } from "./http.js";

interface WireBlob {
  type: string;
  data: string;
}

interface WireCheckpoint {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  parent_checkpoint_id: string | null;
  checkpoint: WireBlob;
  metadata: WireBlob;
  channel_values: Array<{ channel: string; value: WireBlob }>;
  pending_writes: Array<{ task_id: string; channel: string; task_path: string; idx: number; value: WireBlob }>;
}

const MISSING_THREAD = (what: string) =>
  `Failed to ${what}. The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property. ` +
  `When using a checkpointer, you must pass a "thread_id" so the checkpointer knows which conversation thread to persist state for. ` +
  `Example: graph.stream(input, { configurable: { thread_id: "my-thread-id" } })`;

export class StrandSaver extends BaseCheckpointSaver {
  private readonly client: LangGraphClient;

  constructor(connection: StrandConnection, serde?: SerializerProtocol) {
    super(serde);
    this.client = new LangGraphClient(connection);
  }

  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const threadId = config.configurable?.thread_id as string | undefined;
    if (threadId === undefined) return undefined;
    const checkpointId = getCheckpointId(config);
    const { checkpoint } = await this.client.post<{ checkpoint: WireCheckpoint | null }>("checkpoints/get", {
      thread_id: threadId,
      checkpoint_ns: (config.configurable?.checkpoint_ns as string | undefined) ?? "",
      ...(checkpointId ? { checkpoint_id: checkpointId } : {}),
    });
    if (checkpoint === null) return undefined;
    // Asked for by id: the config as given, as MemorySaver answers.
    return this.tuple(checkpoint, checkpointId ? config : undefined);
  }

  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const c = config.configurable ?? {};
    const beforeId = options?.before?.configurable?.checkpoint_id as string | undefined;
    const { checkpoints } = await this.client.post<{ checkpoints: WireCheckpoint[] }>("checkpoints/list", {
      ...(c.thread_id ? { thread_id: c.thread_id } : {}),
      ...(c.checkpoint_ns !== undefined ? { checkpoint_ns: c.checkpoint_ns } : {}),
      ...(c.checkpoint_id ? { checkpoint_id: c.checkpoint_id } : {}),
      ...(beforeId ? { before_id: beforeId } : {}),
      ...(options?.filter !== undefined ? { filter: options.filter } : {}),
      ...(options?.limit !== undefined ? { limit: Math.max(0, options.limit) } : {}),
    });
    for (const checkpoint of checkpoints) yield await this.tuple(checkpoint, undefined);
  }

  /**
   * Stores the checkpoint without its channel values, and the value of each channel it changed
   * (`newVersions`) once at its new version: an unchanged channel is not stored again.
   */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const threadId = config.configurable?.thread_id as string | undefined;
    if (threadId === undefined) throw new Error(MISSING_THREAD("put checkpoint"));
    const checkpointNs = (config.configurable?.checkpoint_ns as string | undefined) ?? "";
    const parentId = config.configurable?.checkpoint_id as string | undefined;
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const [[checkpointType, checkpointBytes], [metadataType, metadataBytes]] = await Promise.all([
      this.serde.dumpsTyped({ ...rest, channel_values: {} }),
      this.serde.dumpsTyped(metadata),
    ]);
    const changed = Object.entries(newVersions).filter(([channel]) => Object.hasOwn(values, channel));
    const channelValues = await Promise.all(
      changed.map(async ([channel, version]) => {
        const [type, bytes] = await this.serde.dumpsTyped(values[channel]);
        return { channel, version, value: { type, data: toBase64(bytes) } };
      }),
    );
    await this.client.post("checkpoints/put", {
      thread_id: threadId,
      checkpoint_ns: checkpointNs,
      checkpoint_id: checkpoint.id,
      ...(parentId ? { parent_checkpoint_id: parentId } : {}),
      checkpoint: { type: checkpointType, data: toBase64(checkpointBytes) },
      metadata: { type: metadataType, data: toBase64(metadataBytes) },
      filterable: filterable(metadata),
      channel_versions: checkpoint.channel_versions,
      channel_values: channelValues,
    });
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const threadId = config.configurable?.thread_id as string | undefined;
    const checkpointId = config.configurable?.checkpoint_id as string | undefined;
    if (threadId === undefined) throw new Error(MISSING_THREAD("put writes"));
    if (checkpointId === undefined) {
      throw new Error(`Failed to put writes. The passed RunnableConfig is missing a required "checkpoint_id" field in its "configurable" property.`);
    }
    const serialized = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, bytes] = await this.serde.dumpsTyped(value);
        // Special channels (errors, interrupts) take their fixed negative index, as every saver does.
        const special = Object.hasOwn(WRITES_IDX_MAP, channel) ? WRITES_IDX_MAP[channel] : undefined;
        return { idx: special ?? idx, channel, value: { type, data: toBase64(bytes) } };
      }),
    );
    await this.client.post("checkpoints/put-writes", {
      thread_id: threadId,
      checkpoint_ns: (config.configurable?.checkpoint_ns as string | undefined) ?? "",
      checkpoint_id: checkpointId,
      task_id: taskId,
      task_path: taskPath ?? "",
      writes: serialized,
    });
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.client.post("checkpoints/delete-thread", { thread_id: threadId });
  }

  private async tuple(c: WireCheckpoint, asked: RunnableConfig | undefined): Promise<CheckpointTuple> {
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      sortedWrites(c.pending_writes).map(async (w): Promise<CheckpointPendingWrite> => [w.task_id, w.channel, await this.load(w.value)]),
    );
    const checkpoint = (await this.load(c.checkpoint)) as Checkpoint;
    checkpoint.channel_values ??= {};
    for (const v of c.channel_values) checkpoint.channel_values[v.channel] = await this.load(v.value);
    if (checkpoint.v < 4 && c.parent_checkpoint_id !== null) await this.migratePendingSends(checkpoint, c);
    const tuple: CheckpointTuple = {
      config: asked ?? { configurable: { thread_id: c.thread_id, checkpoint_ns: c.checkpoint_ns, checkpoint_id: c.checkpoint_id } },
      checkpoint,
      metadata: (await this.load(c.metadata)) as CheckpointMetadata,
      pendingWrites,
    };
    if (c.parent_checkpoint_id !== null) {
      tuple.parentConfig = { configurable: { thread_id: c.thread_id, checkpoint_ns: c.checkpoint_ns, checkpoint_id: c.parent_checkpoint_id } };
    }
    return tuple;
  }

  /**
   * A checkpoint of a format before 4 kept the sends of its parent's tasks as the parent's pending
   * writes to TASKS: they become the checkpoint's TASKS channel, as every saver migrates them.
   */
  private async migratePendingSends(checkpoint: Checkpoint, c: WireCheckpoint): Promise<void> {
    // The parent's writes only: building the parent's tuple would migrate its own parent, and so on up the thread.
    const { checkpoint: parent } = await this.client.post<{ checkpoint: WireCheckpoint | null }>("checkpoints/get", {
      thread_id: c.thread_id,
      checkpoint_ns: c.checkpoint_ns,
      checkpoint_id: c.parent_checkpoint_id,
    });
    const sends = await Promise.all(
      sortedWrites(parent?.pending_writes ?? [])
        .filter((w) => w.channel === TASKS)
        .map((w) => this.load(w.value)),
    );
    checkpoint.channel_values[TASKS] = sends;
    checkpoint.channel_versions ??= {};
    const versions = Object.values(checkpoint.channel_versions);
    checkpoint.channel_versions[TASKS] = versions.length > 0 ? maxChannelVersion(...versions) : this.getNextVersion(undefined);
  }

  private load(blob: WireBlob): Promise<unknown> {
    return this.serde.loadsTyped(blob.type, fromBase64(blob.data));
  }
}

type WireWrite = WireCheckpoint["pending_writes"][number];

/** In the order live execution applies them: the package's writesSortKey. */
function sortedWrites(writes: readonly WireWrite[]): WireWrite[] {
  return [...writes].sort((a, b) =>
    compareWritesSortKeys(writesSortKey(a.task_path, a.task_id, a.idx), writesSortKey(b.task_path, b.task_id, b.idx)),
  );
}

/** The metadata's top-level members a list filter can match: those with a string, number, boolean or null value. */
function filterable(metadata: CheckpointMetadata): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(metadata as Record<string, unknown>)) {
    if (value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) out[key] = value;
  }
  return out;
}
