// The epoch a data directory's node has been in outlives etcd's keys (server/node/known-epoch.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { EPOCH_FILE, readKnownEpoch, writeKnownEpoch } from "../server/node/known-epoch.js";

const dir = mkdtempSync(join(tmpdir(), "strand-epoch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("is 0 until kept, then what was kept last; an unreadable file counts as none", () => {
  expect(readKnownEpoch(dir)).toBe(0);
  writeKnownEpoch(dir, 7);
  expect(readFileSync(join(dir, EPOCH_FILE), "utf8")).toBe("7\n");
  expect(readKnownEpoch(dir)).toBe(7);
  writeKnownEpoch(dir, 12);
  expect(readKnownEpoch(dir)).toBe(12);
  for (const bad of ["", "seven\n", "-3\n", "1e3\n"]) {
    writeFileSync(join(dir, EPOCH_FILE), bad);
    expect(readKnownEpoch(dir), JSON.stringify(bad)).toBe(0);
  }
});
