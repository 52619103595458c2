// Child process for test/store-crash.test.ts: streams AddN writes (several in flight, so lmdb
// batches them) and prints each id once its write promise has resolved. It never exits on its
// own; the test kills it with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json>
const [storeModule, dir, schemaJson] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson) });
let n = 0;
async function writer(lane) {
  for (;;) {
    const i = n++;
    const node = await store.write((db) => db.addNode("User", { name: `w${lane}-${i}`, age: i % 200 }));
    process.stdout.write(node.id + "\n");
  }
}
process.stdout.write("ready\n");
for (let lane = 0; lane < 8; lane++) void writer(lane);
