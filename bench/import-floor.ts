// The import's floor with the import's lookups (issue 32 item 6): the JSON Lines file is read and
// each line parsed inside the timing, then, in one transaction, what any store must write to
// answer what Strand's import lets a query ask, put plainly with lmdb-js: a node's record by its
// id and its INDEX entry (group, id); an edge's record by its id with its ends, and the edge under
// each end (from → to and to → from), every id as its 16 bytes. Nothing is checked and nothing
// is grouped into lists. The keys go in the file's order, so the edges' keys land at random places
// in their B-trees: Strand's import, which sorts what it writes, beats it (0.56-0.60x its CPU at
// 100k nodes + 1M edges); it is what a plain loader costs, not a lower bound.
import { open } from "lmdb";
import { forEachFileLine } from "../runtime/data/lines.js";

interface Line {
  kind: string;
  id: string;
  group?: string;
  name?: string;
  from?: string;
  to?: string;
}

/** A UUID's 16 bytes. */
function idBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replaceAll("-", ""), "hex");
}

/** Loads `file` into a new store in `dir`; its wall and CPU milliseconds, and the keys put. */
export function structuresFloor(dir: string, file: string): { ms: number; cpuMs: number; keys: number } {
  const env = open({ path: dir, noSubdir: false, maxDbs: 8 });
  const binary = { keyEncoding: "binary" as const };
  // Plain msgpack maps, as Strand's record databases (runtime/store/dbs.ts; lmdb's typings list `encoder` for open() only).
  const plainMaps: object = { encoder: { useRecords: false } };
  const nodes = env.openDB<object, Buffer>({ name: "nodes", ...binary, ...plainMaps });
  const groups = env.openDB<Buffer, Buffer>({ name: "groups", ...binary, encoding: "binary" });
  const edges = env.openDB<Buffer, Buffer>({ name: "edges", ...binary, encoding: "binary" });
  const out = env.openDB<Buffer, Buffer>({ name: "out", ...binary, encoding: "binary" });
  const into = env.openDB<Buffer, Buffer>({ name: "in", ...binary, encoding: "binary" });
  const empty = Buffer.alloc(0);
  let keys = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  env.transactionSync(() => {
    forEachFileLine(
      file,
      () => {},
      (text) => {
        const line = JSON.parse(text) as Line;
        const id = idBytes(line.id);
        if (line.kind === "N") {
          nodes.putSync(id, { group: line.group, name: line.name });
          groups.putSync(Buffer.concat([Buffer.from(line.group ?? "", "utf8"), Buffer.of(0), id]), empty);
          keys += 2;
          return;
        }
        const from = idBytes(line.from ?? "");
        const to = idBytes(line.to ?? "");
        edges.putSync(id, Buffer.concat([from, to]));
        out.putSync(Buffer.concat([from, id]), to);
        into.putSync(Buffer.concat([to, id]), from);
        keys += 3;
      },
    );
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  void env.close();
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, keys };
}
