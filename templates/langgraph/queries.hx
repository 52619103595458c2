// The steps the LangGraph routes are made of. A request composes them inside one write (or one
// read) transaction (server/langgraph/langgraph-queries.ts): no query here is served as a route.

// ---- checkpoints

QUERY CheckpointByKey(key: String) =>
    checkpoint <- N<Checkpoint>({key: key})
    RETURN checkpoint

QUERY CheckpointsOfThread(thread: String) =>
    checkpoints <- N<Checkpoint>::WHERE(_::{thread}::EQ(thread))
    RETURN checkpoints

QUERY AllCheckpoints() =>
    checkpoints <- N<Checkpoint>
    RETURN checkpoints

QUERY PutCheckpoint(key: String, thread: String, ns: String, checkpointId: String, parentId: String, checkpointType: String, checkpoint: String, metadataType: String, metadata: String, filterable: String, channelVersions: String) =>
    stored <- N<Checkpoint>({key: key})::UpsertN({key: key, thread: thread, ns: ns, checkpointId: checkpointId, parentId: parentId, checkpointType: checkpointType, checkpoint: checkpoint, metadataType: metadataType, metadata: metadata, filterable: filterable, channelVersions: channelVersions})
    RETURN NONE

QUERY ChannelValueByKey(key: String) =>
    value <- N<ChannelValue>({key: key})
    RETURN value

QUERY PutChannelValue(key: String, thread: String, valueType: String, value: String) =>
    stored <- N<ChannelValue>({key: key})::UpsertN({key: key, thread: thread, valueType: valueType, value: value})
    RETURN NONE

QUERY WritesOfCheckpoint(checkpoint: String) =>
    writes <- N<CheckpointWrite>::WHERE(_::{checkpoint}::EQ(checkpoint))
    RETURN writes

QUERY WriteByKey(key: String) =>
    write <- N<CheckpointWrite>({key: key})
    RETURN write

QUERY PutWrite(key: String, checkpoint: String, thread: String, taskId: String, idx: I64, channel: String, taskPath: String, valueType: String, value: String) =>
    stored <- N<CheckpointWrite>({key: key})::UpsertN({key: key, checkpoint: checkpoint, thread: thread, taskId: taskId, idx: idx, channel: channel, taskPath: taskPath, valueType: valueType, value: value})
    RETURN NONE

QUERY DropThread(thread: String) =>
    DROP N<Checkpoint>::WHERE(_::{thread}::EQ(thread))
    DROP N<CheckpointWrite>::WHERE(_::{thread}::EQ(thread))
    DROP N<ChannelValue>::WHERE(_::{thread}::EQ(thread))
    RETURN NONE

// ---- store items

QUERY ItemByKey(key: String) =>
    item <- N<StoreItem>({key: key})
    RETURN item

QUERY AllItems() =>
    items <- N<StoreItem>
    RETURN items

QUERY PutItem(key: String, namespace: [String], itemKey: String, value: String, createdAt: I64, updatedAt: I64, expiresAt: I64, ttlMinutes: F64, embeddedPaths: [String], embedding: [F64]) =>
    stored <- N<StoreItem>({key: key})::UpsertN({key: key, namespace: namespace, itemKey: itemKey, value: value, createdAt: createdAt, updatedAt: updatedAt, expiresAt: expiresAt, ttlMinutes: ttlMinutes, embeddedPaths: embeddedPaths, embedding: embedding})
    RETURN NONE

QUERY SetItemExpiry(key: String, expiresAt: I64) =>
    item <- N<StoreItem>({key: key})::UPDATE({expiresAt: expiresAt})
    RETURN NONE

// The item and its prefix rows.
QUERY DropItem(key: String) =>
    DROP N<StoreItem>({key: key})
    DROP N<ItemPrefix>::WHERE(_::{item}::EQ(key))
    RETURN NONE

QUERY AddItemPrefix(prefix: String, item: String) =>
    row <- AddN<ItemPrefix>({prefix: prefix, item: item})
    RETURN NONE

// The keys of the items under a namespace prefix.
QUERY ItemsUnder(prefix: String) =>
    rows <- N<ItemPrefix>::WHERE(_::{prefix}::EQ(prefix))
    RETURN rows

// Items whose TTL ran out before `now` (items without one hold expiresAt 0), at most `limit`.
QUERY ExpiredItems(now: I64, limit: I64) =>
    items <- N<StoreItem>::WHERE(AND(_::{expiresAt}::GT(0), _::{expiresAt}::LT(now)))::RANGE(0, limit)
    RETURN items
