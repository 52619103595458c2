// Durability: every write whose promise resolved must survive kill -9 of the writing process.
// The child runs the store compiled to JS (see support/transpile-tree.ts).
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { removeDir, schema, tempDir } from "./support/store-fixtures.js";
import { buildStore, root } from "./support/transpile-tree.js";

let buildDir = "";
let dataDir = "";

beforeAll(() => {
  buildDir = buildStore("strand-crash-").buildDir;
  dataDir = tempDir("strand-crash-");
});

afterAll(() => {
  removeDir(buildDir);
  removeDir(dataDir);
});

test("acknowledged writes survive SIGKILL", async () => {
  const child = spawn(
    process.execPath,
    [
      path.join(root, "test/support/crash-child.mjs"),
      pathToFileURL(path.join(buildDir, "runtime/graph-store.js")).href,
      dataDir,
      JSON.stringify(schema),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const acked: string[] = [];
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    // Kill mid-stream: after a good number of acknowledgements, at a random moment.
    const killAt = 300 + Math.floor(Math.random() * 200);
    child.stdout.on("data", (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const line of lines) if (line !== "ready") acked.push(line);
      if (acked.length >= killAt && child.exitCode === null && !child.killed) {
        child.kill("SIGKILL");
        resolve();
      }
    });
    child.on("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`child exited early (${code ?? signal}): ${stderr}`));
    });
  });
  expect(await exited).toBe("SIGKILL");
  // Lines the child printed after the kill decision were acknowledged too; count them all.
  expect(acked.length).toBeGreaterThanOrEqual(300);

  const store = GraphStore.open({ path: dataDir, schema });
  try {
    store.read((db) => {
      const present = new Set(db.nodesByLabel("User").map((n) => n.id));
      const missing = acked.filter((id) => !present.has(id));
      expect(missing).toEqual([]);
      for (const id of acked.slice(-20)) expect(db.nodeById("User", id).id).toBe(id);
    });
    // The reopened store is fully usable.
    await store.write((db) => db.addNode("User", { name: "after crash" }));
  } finally {
    await store.close();
  }
}, 60_000);
