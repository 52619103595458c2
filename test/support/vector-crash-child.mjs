// Child process for test/vector-crash.test.ts: streams AddV writes (several in flight, so lmdb
// batches them) and prints "<id> <vector JSON>" once each write promise has resolved. It never
// exits on its own; the test kills it with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json> <dimension>
const [storeModule, dir, schemaJson, dimText] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson) });
const dim = Number(dimText);
let n = 0;
async function writer() {
  for (;;) {
    const i = n++;
    const vector = Array.from({ length: dim }, () => Math.random() * 2 - 1);
    const doc = await store.write((db) => db.addVector("Doc", vector, { slug: `crash-${i}` }));
    process.stdout.write(`${doc.id} ${JSON.stringify(vector)}\n`);
  }
}
process.stdout.write("ready\n");
for (let lane = 0; lane < 8; lane++) void writer();
