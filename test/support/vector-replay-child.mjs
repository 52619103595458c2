// Child process for test/vector-crash.test.ts's replay test: performs the plan's operations one
// after another (AddV, UpsertV of an earlier vector, DropV; each its own write), with background
// checkpoints after `checkpointChanges` changes, then prints one line "0 <JSON>" holding the
// results of the plan's searches and the checkpoint counts, and waits to be killed with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json> <plan file>
import fs from "node:fs";

const [storeModule, dir, schemaJson, planFile] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const { ops, queries, checkpointChanges } = JSON.parse(fs.readFileSync(planFile, "utf8"));
const store = GraphStore.open({
  path: dir,
  schema: JSON.parse(schemaJson),
  vectorCheckpoints: { changes: checkpointChanges, seconds: 3600 },
});
const ids = [];
process.stdout.write("ready\n");
for (const op of ops) {
  await store.write((db) => {
    if (op.op === "add") ids.push(db.addVector("Doc", op.vector, {}).id);
    else if (op.op === "upsert") db.upsertVector("Doc", [db.vectorById("Doc", ids[op.target])], op.vector, {});
    else db.dropVector(db.vectorById("Doc", ids[op.target]));
  });
  // Let a due background checkpoint run between writes, as it would in a server.
  await new Promise((resolve) => setImmediate(resolve));
}
const results = store.read((db) => queries.map((q) => db.searchVectors("Doc", q, 10).map((d) => [d.id, d.score])));
process.stdout.write(`0 ${JSON.stringify({ results, checkpoints: store.vectorCheckpointStatus() })}\n`);
setInterval(() => {}, 1000);
