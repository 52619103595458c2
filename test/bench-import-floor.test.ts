// The import's floor with the import's lookups (bench/import-floor.ts): each node's record and
// INDEX entry, each edge's record and the edge under both its ends, read back exactly.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "lmdb";
import { expect, it } from "vitest";
import { structuresFloor } from "../bench/import-floor.js";

const A = "01890a5d-ac96-774b-bcce-b302099a8057";
const B = "01890a5d-ac96-774b-bcce-b302099a8058";
const L = "01890a5d-ac96-774b-bcce-b302099a8059";
const bytes = (uuid: string): string => uuid.replaceAll("-", "");

it("puts every node's record and INDEX entry, and every edge under its id and both its ends", () => {
  const dir = mkdtempSync(join(tmpdir(), "strand-import-floor-"));
  try {
    const file = join(dir, "in.jsonl");
    writeFileSync(
      file,
      [
        { kind: "N", label: "Item", id: A, group: "g1", name: "a" },
        { kind: "N", label: "Item", id: B, group: "g2", name: "b" },
        { kind: "E", label: "Link", id: L, from: A, to: B },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const loaded = structuresFloor(join(dir, "store"), file);
    expect(loaded.keys).toBe(7);
    const env = open({ path: join(dir, "store"), maxDbs: 8 });
    const keysOf = (name: string): string[] =>
      [...env.openDB({ name, keyEncoding: "binary", encoding: "binary" }).getKeys()].map((k) => (k as Buffer).toString("hex"));
    expect({
      nodes: keysOf("nodes"),
      groups: keysOf("groups"),
      edges: keysOf("edges"),
      out: keysOf("out"),
      in: keysOf("in"),
    }).toEqual({
      nodes: [bytes(A), bytes(B)],
      groups: [`${Buffer.from("g1").toString("hex")}00${bytes(A)}`, `${Buffer.from("g2").toString("hex")}00${bytes(B)}`],
      edges: [bytes(L)],
      out: [bytes(A) + bytes(L)],
      in: [bytes(B) + bytes(L)],
    });
    void env.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
