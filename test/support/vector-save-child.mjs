// Child process for test/vector-save.test.ts, run under `prlimit --fsize`: opens the store with
// other HNSW parameters (so its index is rebuilt and a checkpoint is due), saves, and prints one
// JSON line with the checkpoint status and how close() ended. Files beyond the limit cannot grow:
// hnswlib's write is cut short without an error, which the save must catch and name.
// argv: <compiled graph-store.js> <data dir> <schema json>
const [storeModule, dir, schemaJson] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson), vector: { m: 8 } });
await store.saveVectorIndexes();
const status = store.vectorCheckpointStatus();
let close = "ok";
try {
  await store.close();
} catch (error) {
  close = `${error.code ?? "?"}: ${error.message}`;
}
process.stdout.write(`${JSON.stringify({ status, close })}\n`);
