// Child process for test/store-crash.test.ts: performs the operations of a plan (users, Follows
// and Knows edges, updates, drops; see store-crash.test.ts) in 8 lanes, so lmdb batches several
// writes per transaction, and prints "<op index> <JSON result>" once each write has settled:
// {"id"} or {} when acknowledged, {"error": code} when rejected. Operations name the items of
// earlier operations by op index; writes run in call order (= op index order), so each sees the
// same store on every run. It never exits on its own; the test kills it with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json> <plan file>
import fs from "node:fs";
import { runLanes } from "./crash-lanes.mjs";

const [storeModule, dir, schemaJson, planFile] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson) });
const plan = JSON.parse(fs.readFileSync(planFile, "utf8"));
/** op index → id of the item it created (set inside the write, so later writes see it). */
const ids = new Map();

function idOf(op) {
  const id = ids.get(op);
  if (id === undefined) throw Object.assign(new Error(`op ${op} created nothing`), { code: "NOT_FOUND" });
  return id;
}

function perform(db, i, op) {
  switch (op.op) {
    case "user": {
      const user = db.addNode("User", { name: op.name, age: op.age, ...(op.email === null ? {} : { email: op.email }) });
      ids.set(i, user.id);
      return { id: user.id };
    }
    case "follow":
    case "knows": {
      const props = op.op === "knows" && op.code !== null ? { code: op.code } : {};
      const edge = db.addEdge(op.op === "follow" ? "Follows" : "Knows", props, idOf(op.from), idOf(op.to));
      ids.set(i, edge.id);
      return { id: edge.id };
    }
    case "update":
      db.updateNodes([db.nodeById("User", idOf(op.user))], { name: op.name, age: op.age });
      return {};
    case "dropUser":
      db.drop([db.nodeById("User", idOf(op.user))]);
      return {};
    case "dropEdge":
      db.drop([db.edgeById(op.label, idOf(op.edge))]);
      return {};
  }
  throw new Error(`unknown op ${op.op}`);
}

runLanes(store, plan, perform);
