// The floor of the scan benchmark: the two queries of bench/scan-project/queries.hx written by
// hand as plain loops over Strand's own LMDB data (the layout of runtime/store/keys.ts), in one
// read transaction per call, the way someone would write them without a query engine:
//   FilterScan     one range over the `nodes` keys [Person, *], decode, test, collect.
//   ProjectPeople  the same range, stopping at the 1000th match; per match the output object and
//                  the Knows out-degree read from the `adjacency_out` tail of (id, Knows) (its u32
//                  sealed-chunk header plus tail length gives the count without reading chunks or records).
// The env is opened on the store's directory while the store is open: lmdb-js shares one native
// environment per path in a process (reference-counted), so both read the very same pages.
import { open, type Database, type RootDatabase } from "lmdb";
import type { NodeItem } from "../core/items.js";
import { CHUNK, ENTRY_BYTES, TAIL_HEADER, listKey } from "../runtime/adjacency/lists.js";
import { DB_NAMES, labelRange } from "../runtime/store/keys.js";
import { KNOWS, PERSON } from "./scan-project.js";

/** ProjectPeople's RANGE(0, 1000). */
export const PROJECTION_LIMIT = 1000;

export interface ProjectedPerson {
  name: string | null;
  years: number | null;
  friends: number;
  town: string | null;
}

export interface ScanFloor {
  filterScan(min: number, city: string): { people: NodeItem[] };
  projectPeople(min: number): { people: ProjectedPerson[] };
  close(): Promise<void>;
}

const field = <T>(value: unknown): T | null => (value === undefined ? null : (value as T));

export function openScanFloor(path: string): ScanFloor {
  const env: RootDatabase = open({ path, noSubdir: false, readOnly: true, maxDbs: DB_NAMES.length + 4 });
  // Plain msgpack maps, as Strand writes them (lmdb's typings list `encoder` for open() only).
  const plainMaps: object = { encoder: { useRecords: false } };
  const nodes: Database<NodeItem, Uint8Array> = env.openDB<NodeItem, Uint8Array>({ name: "nodes", keyEncoding: "binary", ...plainMaps });
  const out: Database<Uint8Array, Uint8Array> = env.openDB<Uint8Array, Uint8Array>({
    name: "adjacency_out",
    encoding: "binary",
    keyEncoding: "binary",
  });
  const { start, end } = labelRange(PERSON);

  const outDegree = (id: string, transaction: ReturnType<RootDatabase["useReadTransaction"]>): number => {
    const tail = out.get(listKey(id, KNOWS), { transaction });
    if (tail === undefined) return 0;
    const sealed = (tail[0]! | (tail[1]! << 8) | (tail[2]! << 16) | (tail[3]! << 24)) >>> 0;
    return sealed * CHUNK + (tail.length - TAIL_HEADER) / ENTRY_BYTES;
  };

  return {
    filterScan(min, city) {
      const transaction = env.useReadTransaction();
      try {
        const people: NodeItem[] = [];
        for (const { value } of nodes.getRange({ start, end, transaction })) {
          if ((value.age as number) >= min && value.city === city) people.push(value);
        }
        return { people };
      } finally {
        transaction.done();
      }
    },
    projectPeople(min) {
      const transaction = env.useReadTransaction();
      try {
        const people: ProjectedPerson[] = [];
        for (const { value } of nodes.getRange({ start, end, transaction })) {
          if (!((value.age as number) > min)) continue;
          people.push({
            name: field<string>(value.name),
            years: field<number>(value.age),
            friends: outDegree(value.id, transaction),
            town: field<string>(value.city),
          });
          if (people.length === PROJECTION_LIMIT) break;
        }
        return { people };
      } finally {
        transaction.done();
      }
    },
    close: () => env.close(),
  };
}
