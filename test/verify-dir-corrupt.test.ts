// strand verify on a data file with a damaged page: LMDB's own error (MDB_CORRUPTED and the like)
// becomes the CORRUPT outcome with what to do, not a stack trace. The damage is simulated by the
// check throwing LMDB's error: real damage makes LMDB either return such an error or crash the
// process (reading a damaged page is undefined behaviour in LMDB), so it cannot be a test's input.
import path from "node:path";
import { afterEach, expect, test, vi } from "vitest";
import { GraphStore } from "../runtime/graph-store.js";
import { verifyDataDir } from "../runtime/verify/verify-dir.js";
import { removeDir, schema, tempDir } from "./support/store-fixtures.js";

const failure = vi.hoisted(() => ({ error: null as Error | null }));
vi.mock("../runtime/verify/verify.js", async (original) => {
  const real = await original<typeof import("../runtime/verify/verify.js")>();
  return {
    ...real,
    verifyStore: (...args: Parameters<typeof real.verifyStore>) => {
      if (failure.error !== null) throw failure.error;
      return real.verifyStore(...args);
    },
  };
});

const dirs: string[] = [];
afterEach(() => {
  failure.error = null;
  for (const dir of dirs.splice(0)) removeDir(dir);
});

test("an LMDB error while checking is reported as CORRUPT with what to do; any other error is not taken for damage", async () => {
  const dir = tempDir("strand-damaged-page-");
  dirs.push(dir);
  const store = GraphStore.open({ path: dir, schema });
  await store.write((db) => db.addNode("User", { name: "a", age: 1 }));
  await store.close();
  expect(await verifyDataDir(dir)).toMatchObject({ ok: true });

  failure.error = new Error("MDB_CORRUPTED: Located page was wrong type");
  expect(await verifyDataDir(dir)).toEqual({
    ok: false,
    code: "CORRUPT",
    message: `${dir}: the data file is damaged (LMDB: MDB_CORRUPTED: Located page was wrong type): restore the directory from a backup`,
  });
  // Bytes msgpackr cannot decode: a damaged page LMDB read without complaint.
  failure.error = new Error("Unknown MessagePack token 193");
  expect(await verifyDataDir(dir)).toEqual({
    ok: false,
    code: "CORRUPT",
    message: `${dir}: the data file is damaged (a stored value cannot be decoded: Unknown MessagePack token 193): restore the directory from a backup`,
  });
  failure.error = new Error("a bug in a check");
  await expect(verifyDataDir(dir)).rejects.toThrow("a bug in a check");
  // The directory was released each time: a normal verify runs again.
  failure.error = null;
  expect(await verifyDataDir(path.resolve(dir))).toMatchObject({ ok: true });
});
