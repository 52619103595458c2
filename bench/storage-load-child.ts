// Run as a child process by bench/storage.ts: opens the 1M-edge store and runs random 2-hop
// traversals (`Out<Link>::Out<Link>` from a random Item, full records) for the given seconds, in
// a fresh process so its peak RSS is the store's own. Prints one JSON line {maxRssMb, traversals}.
import { GraphStore } from "../runtime/graph-store.js";
import { DATA_PROJECT } from "./for-ingest.js";
import { benchSchema } from "./project.js";
import { randomIndex, seededRandom } from "./random.js";

const [dir, seconds, seed] = process.argv.slice(2);
if (dir === undefined || seconds === undefined) throw new Error("usage: storage-load-child.js <data dir> <seconds> [seed]");
const store = GraphStore.open({ path: dir, schema: benchSchema(DATA_PROJECT) });
const starts = store.read((db) => db.nodesByLabel("Item").map((n) => n.id));
const random = seededRandom(Number(seed ?? 42));
const end = performance.now() + Number(seconds) * 1000;
let traversals = 0;
while (performance.now() < end) {
  for (let i = 0; i < 100; i++) {
    const start = starts[randomIndex(random, starts.length)]!;
    store.read((db) => db.out(db.out([db.nodeById("Item", start)], "Link"), "Link"));
    traversals++;
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024, traversals })}\n`);
