// One contender of the lock race (test/fault-injection.test.ts): opens a GraphStore on the data
// directory (argv[2]) from the built dist/, prints "locked <pid>" or "refused <message>", and
// holds the store until its stdin closes (or it is killed).
import { GraphStore } from "../../dist/runtime/graph-store.js";

const schema = { nodes: [{ name: "N", fields: [] }], edges: [], vectors: [] };
let store;
try {
  store = GraphStore.open({ path: process.argv[2], schema });
} catch (error) {
  process.stdout.write(`refused ${error.message}\n`);
  process.exit(1);
}
process.stdout.write(`locked ${process.pid}\n`);
process.stdin.resume();
process.stdin.on("end", () => void store.close().then(() => process.exit(0)));
