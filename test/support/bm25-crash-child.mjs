// Child process for test/bm25-crash.test.ts: streams AddN writes of text documents (several in
// flight, so lmdb batches them) and prints "<id> <unique term>" once each write promise has
// resolved. It never exits on its own; the test kills it with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json>
const [storeModule, dir, schemaJson] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson) });
let n = 0;
async function writer(lane) {
  for (;;) {
    const term = `doc${n++}`;
    const note = await store.write((db) => db.addNode("Note", { title: `Lane ${lane}`, text: `shared words and ${term}` }));
    process.stdout.write(`${note.id} ${term}\n`);
  }
}
process.stdout.write("ready\n");
for (let lane = 0; lane < 8; lane++) void writer(lane);
