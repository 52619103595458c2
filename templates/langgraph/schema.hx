// The built-in store of `strand serve --memory`'s LangGraph routes (server/langgraph/): the
// checkpoints of StrandSaver and the items of StrandStore (the `strand/langgraph` export). Not a
// template for `strand init`: the routes read and write it only through the queries in queries.hx.

// One checkpoint of a thread. `key` is JSON [thread, ns, checkpointId]; blobs are the client's
// serializer output (its type name and base64 bytes): the server never decodes them. The
// checkpoint blob holds no channel values: each is a ChannelValue, stored once per version, and
// `channelVersions` (JSON) says which version of each channel the checkpoint holds. `filterable`
// is JSON of the metadata's top-level entries with a string, number, boolean or null value, the
// only ones a list filter can match.
N::Checkpoint {
    UNIQUE INDEX key: String,
    INDEX thread: String,
    ns: String,
    checkpointId: String,
    parentId: String,
    checkpointType: String,
    checkpoint: String,
    metadataType: String,
    metadata: String,
    filterable: String,
    channelVersions: String
}

// The value of one channel at one version. `key` is JSON [thread, ns, channel, version].
N::ChannelValue {
    UNIQUE INDEX key: String,
    INDEX thread: String,
    valueType: String,
    value: String
}

// One pending write of a task against a checkpoint. `key` is JSON [thread, ns, checkpointId,
// taskId, idx]; `checkpoint` the key of the checkpoint it belongs to.
N::CheckpointWrite {
    UNIQUE INDEX key: String,
    INDEX checkpoint: String,
    INDEX thread: String,
    taskId: String,
    idx: I64,
    channel: String,
    taskPath: String,
    valueType: String,
    value: String
}

// One item of the long-term store. `key` is JSON [namespace, itemKey]; `value` the item's JSON.
// `embedding` holds one vector per entry of `embeddedPaths`, end to end (the server's embedder
// gives every vector the same length). `expiresAt` is epoch ms, 0 for an item without a TTL;
// `ttlMinutes` what a read refreshes it by (0: none).
N::StoreItem {
    UNIQUE INDEX key: String,
    namespace: [String],
    itemKey: String,
    value: String,
    createdAt: I64,
    updatedAt: I64,
    INDEX expiresAt: I64,
    ttlMinutes: F64,
    embeddedPaths: [String],
    embedding: [F64]
}

// One namespace prefix of an item, for each of its prefixes (["a"], ["a", "b"], .. its whole
// namespace): the items under a prefix are one index lookup. `prefix` is the prefix as text
// (server/langgraph/namespace-path.ts); `item` the item's key. Ranges of Strings are not served by
// an INDEX, equality is.
N::ItemPrefix {
    INDEX prefix: String,
    INDEX item: String
}
