// Child process for test/vector-save.test.ts: opens the store with other HNSW parameters (so its
// index is rebuilt and a checkpoint is due), says "opened", and waits for a line on stdin: the
// test then lowers its file size limit (`prlimit --pid`; the open itself refuses a limit that
// leaves under 1 MiB of room). It saves and prints one JSON line with the checkpoint status and
// how close() ended. Files beyond the limit cannot grow: hnswlib's write is cut short without an
// error, which the save must catch and name.
// argv: <compiled graph-store.js> <data dir> <schema json>
const [storeModule, dir, schemaJson] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
// Background checkpoints off: the save below, under the lowered limit, must be the first.
const never = { changes: Number.MAX_SAFE_INTEGER, seconds: 1e9 };
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson), vector: { m: 8 }, vectorCheckpoints: never });
process.stdout.write("opened\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
process.stdin.destroy();
await store.saveVectorIndexes();
const status = store.vectorCheckpointStatus();
let close = "ok";
try {
  await store.close();
} catch (error) {
  close = `${error.code ?? "?"}: ${error.message}`;
}
process.stdout.write(`${JSON.stringify({ status, close })}\n`);
