// Child process for test/vector-crash.test.ts: performs the operations of a plan (AddV, UpsertV of
// an earlier vector with a new one, DropV) in 8 lanes, so lmdb batches several writes per
// transaction, and prints "<op index> <JSON result>" once each write has settled: {"id"} or {}
// when acknowledged, {"error": code} when rejected. Operations name the vectors of earlier
// operations by op index; writes run in call order, so each sees the same store on every run.
// It never exits on its own; the test kills it with SIGKILL.
// argv: <compiled graph-store.js> <data dir> <schema json> <plan file>
import fs from "node:fs";
import { runLanes } from "./crash-lanes.mjs";

const [storeModule, dir, schemaJson, planFile] = process.argv.slice(2);
const { GraphStore } = await import(storeModule);
const store = GraphStore.open({ path: dir, schema: JSON.parse(schemaJson) });
const plan = JSON.parse(fs.readFileSync(planFile, "utf8"));
const ids = new Map();

function existing(db, op) {
  const id = ids.get(op);
  if (id === undefined) throw Object.assign(new Error(`op ${op} created nothing`), { code: "NOT_FOUND" });
  return db.vectorById("Doc", id);
}

function perform(db, i, op) {
  switch (op.op) {
    case "add": {
      const doc = db.addVector("Doc", op.vector, { slug: op.slug });
      ids.set(i, doc.id);
      return { id: doc.id };
    }
    case "upsert":
      db.upsertVector("Doc", [existing(db, op.target)], op.vector, {});
      return {};
    case "drop":
      db.dropVector(existing(db, op.target));
      return {};
  }
  throw new Error(`unknown op ${op.op}`);
}

runLanes(store, plan, perform);
