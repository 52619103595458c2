// Child process for test/backup-restore-trim.test.ts (an LMDB assertion aborts the process, so it
// runs apart from the test runner): writes `count` records of `size`-character names with a
// commit-log entry each, backs the store up, opens the copy with its log on demand and no grace
// (as a restored store or a seeded replica is, 30 s later), trims the log and writes again.
// Prints "ok <oldest kept entry>" when all of it went through.
// argv: <compiled graph-store.js> <work dir> <count> <size>
const [storeModule, dir, count, size] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const schema = {
  nodes: [{ name: "Note", fields: [{ name: "text", type: { kind: "scalar", name: "String" }, index: "none", default: null }] }],
  vectors: [],
  edges: [],
};
const source = GraphStore.open({ path: `${dir}/source`, schema });
const text = "x".repeat(Number(size));
for (let i = 0; i < Number(count); i++) await source.write((db) => db.addNode("Note", { text }));
const backup = await source.backup(`${dir}/backup`);
if ("failed" in backup) throw new Error(backup.failed);
await source.close();
const copy = GraphStore.open({ path: `${dir}/backup`, schema, logOnDemand: { graceMs: 0 } });
await copy.log.trim();
await copy.write((db) => db.addNode("Note", { text: "after" }));
process.stdout.write(`ok ${copy.log.oldest()}\n`);
await copy.close();
