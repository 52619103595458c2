// Child process of bench/vector-restart.ts. `open <dir>`: opens the store, prints
// {"openMs", "status"} and exits without writing. `write <dir> <n> <dim> <seed>`: opens with
// background checkpoints off, acknowledges n AddV writes (one vector each), prints "done" and
// waits to be killed with SIGKILL.
import { GraphStore } from "../runtime/graph-store.js";
import { seededRandom } from "./random.js";
import { unitVectors, vectorAt } from "./vector-data.js";
import { SEARCHED, vectorProjectSchema } from "./vector-project.js";

const [mode, dir, n, dim, seed] = process.argv.slice(2);
if (mode === "open") {
  const t0 = performance.now();
  const store = GraphStore.open({ path: dir!, schema: vectorProjectSchema() });
  const openMs = performance.now() - t0;
  process.stdout.write(`${JSON.stringify({ openMs, status: store.vectorIndexStatus(SEARCHED) })}\n`);
  process.exit(0); // no close: it would save a checkpoint, and the next run must see the same files
} else if (mode === "write") {
  const store = GraphStore.open({
    path: dir!,
    schema: vectorProjectSchema(),
    vectorCheckpoints: { changes: Number.MAX_SAFE_INTEGER, seconds: 1e9 },
  });
  const set = unitVectors(seededRandom(Number(seed)), Number(n), Number(dim));
  for (let i = 0; i < set.count; i++) await store.write((db) => db.addVector(SEARCHED, vectorAt(set, i), { n: -1 - i }));
  process.stdout.write("done\n");
  setInterval(() => {}, 1000);
} else {
  throw new Error("usage: vector-restart-child.js open <dir> | write <dir> <n> <dim> <seed>");
}
