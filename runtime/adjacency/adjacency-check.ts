// Adjacency against edges: every edge has exactly one entry (edge id, to id) in the out list of
// (from, label) and one (edge id, from id) in the in list of (to, label); every list is well formed
// (full chunks 0..sealed-1, then a tail of fewer than CHUNK entries; see adjacency/lists.ts) and
// lists nothing else. Not that it is in edge id order: a list is in the order its edges were
// added, which id order shows only for ids made here (an import keeps ids as given).
import { CHUNK, CHUNK_BYTES, ENTRY_BYTES, TAIL_HEADER, joinEntries, parseListKey, type AdjacencyDb } from "./lists.js";
import { ID_BYTES, readIdBytes } from "../store/id-bytes.js";
import type { Key } from "../store/keys.js";
import { parsePendingKey } from "./pending-in.js";
import type { CheckContext, StoredEdge } from "../store/integrity.js";

type Direction = "out" | "in";

export function checkAdjacency(ctx: CheckContext, edges: readonly StoredEdge[]): void {
  for (const direction of ["out", "in"] as const) {
    const expected = expectedLists(edges, direction);
    const db = direction === "out" ? ctx.dbs.out : ctx.dbs.in;
    for (const list of withPending(ctx, direction, storedLists(ctx, db, direction))) {
      const listKey = JSON.stringify(list.key);
      compareList(ctx, direction, list.key, list.entries, expected.get(listKey) ?? new Map());
      expected.delete(listKey);
    }
    // Lists that should exist and do not.
    for (const [listKey, entries] of expected) {
      for (const [edgeId, edge] of entries) ctx.report("adjacency", direction, JSON.parse(listKey) as Key, missing(edge, edgeId));
    }
  }
}

/** JSON [nodeId, label] → edge id → the edge, for the lists of one direction. */
function expectedLists(edges: readonly StoredEdge[], direction: Direction): Map<string, Map<string, StoredEdge>> {
  const lists = new Map<string, Map<string, StoredEdge>>();
  for (const e of edges) {
    const key = JSON.stringify([direction === "out" ? e.from_node : e.to_node, e.label]);
    let list = lists.get(key);
    if (list === undefined) {
      list = new Map();
      lists.set(key, list);
    }
    list.set(e.id, e);
  }
  return lists;
}

function missing(edge: StoredEdge, edgeId: string): string {
  return `E::${edge.label} '${edgeId}' from '${edge.from_node}' to '${edge.to_node}' is missing from the list`;
}

/**
 * The lists with their pending entries (adjacency/pending-in.ts) after their stored ones, as readers
 * see them: `in` lists only; a list with pending entries alone comes after the stored lists.
 */
function* withPending(
  ctx: CheckContext,
  direction: Direction,
  stored: Iterable<{ key: Key; entries: Uint8Array }>,
): Iterable<{ key: Key; entries: Uint8Array }> {
  if (direction === "out") {
    yield* stored;
    return;
  }
  const pending = pendingLists(ctx);
  for (const list of stored) {
    const id = JSON.stringify(list.key);
    const more = pending.get(id);
    pending.delete(id);
    yield more === undefined ? list : { key: list.key, entries: joinEntries([list.entries, ...more.parts]) };
  }
  for (const { key, parts } of pending.values()) yield { key, entries: joinEntries(parts) };
}

/** JSON [nodeId, label] → the list's pending entries (edge id, from id), in key order; malformed keys reported. */
function pendingLists(ctx: CheckContext): Map<string, { key: Key; parts: Uint8Array[] }> {
  const lists = new Map<string, { key: Key; parts: Uint8Array[] }>();
  for (const { key, value } of ctx.dbs.inPending.getRange(ctx.read)) {
    ctx.tick();
    let parsed: { label: string; prefixLength: number };
    try {
      parsed = parsePendingKey(key);
      if (value.length !== ID_BYTES) throw new Error(`a pending entry's value of ${value.length} bytes (a node id has ${ID_BYTES})`);
    } catch (error) {
      ctx.report("adjacency", "in", ["pending", ...key], (error as Error).message);
      continue;
    }
    const listKey: Key = [readIdBytes(key, 0), parsed.label];
    const id = JSON.stringify(listKey);
    let list = lists.get(id);
    if (list === undefined) {
      list = { key: listKey, parts: [] };
      lists.set(id, list);
    }
    const entry = new Uint8Array(ENTRY_BYTES);
    entry.set(key.subarray(parsed.prefixLength, parsed.prefixLength + ID_BYTES), 0);
    entry.set(value, ID_BYTES);
    list.parts.push(entry);
  }
  return lists;
}

/** Each list's tail key and its entries (chunks then tail); malformed parts are reported and left out. */
function* storedLists(ctx: CheckContext, db: AdjacencyDb, direction: Direction): Iterable<{ key: Key; entries: Uint8Array }> {
  let current: { key: Key; sealed: number; chunks: Uint8Array[]; tail: Uint8Array } | null = null;
  const finish = function* (): Iterable<{ key: Key; entries: Uint8Array }> {
    if (current === null) return;
    const { key, sealed, chunks, tail } = current;
    for (let i = 0; i < sealed; i++) {
      if (chunks[i] === undefined) ctx.report("adjacency", direction, [...key, i], `chunk ${i} of ${sealed} is missing`);
    }
    yield { key, entries: joinEntries([...chunks.filter((c) => c !== undefined), tail]) };
    current = null;
  };
  for (const { key: stored, value } of db.getRange(ctx.read)) {
    ctx.tick();
    let key: Key;
    try {
      key = parseListKey(stored);
    } catch (error) {
      ctx.report("adjacency", direction, [...stored], (error as Error).message);
      continue;
    }
    if (key.length === 2) {
      yield* finish();
      const entryBytes = value.length - TAIL_HEADER;
      if (entryBytes < 0 || entryBytes % ENTRY_BYTES !== 0 || entryBytes >= CHUNK_BYTES) {
        ctx.report("adjacency", direction, key, `a malformed list tail of ${value.length} bytes`);
        continue;
      }
      const sealed = (value[0]! | (value[1]! << 8) | (value[2]! << 16) | (value[3]! << 24)) >>> 0;
      const tail = value.subarray(TAIL_HEADER);
      if (sealed === 0 && tail.length === 0) ctx.report("adjacency", direction, key, "an empty list is stored (it should have no keys)");
      current = { key, sealed, chunks: [], tail };
      continue;
    }
    const i = key[2] as number;
    const owner = current as { key: Key; sealed: number; chunks: Uint8Array[] } | null;
    if (owner === null || owner.key[0] !== key[0] || owner.key[1] !== key[1] || !(i < owner.sealed)) {
      ctx.report("adjacency", direction, key, "a chunk of no list (beyond its tail's count, or without a tail)");
    } else if (value.length !== CHUNK_BYTES) {
      ctx.report("adjacency", direction, key, `a chunk of ${value.length / ENTRY_BYTES} entries (a full chunk has ${CHUNK})`);
    } else {
      owner.chunks[i] = value;
    }
  }
  yield* finish();
}

function compareList(ctx: CheckContext, direction: Direction, key: Key, entries: Uint8Array, expected: Map<string, StoredEdge>): void {
  const seen = new Set<string>();
  for (let off = 0; off < entries.length; off += ENTRY_BYTES) {
    ctx.counts.adjacencyEntries++;
    const edgeId = readIdBytes(entries, off);
    const otherId = readIdBytes(entries, off + ID_BYTES);
    const edge = expected.get(edgeId);
    if (seen.has(edgeId)) {
      ctx.report("adjacency", direction, key, `edge '${edgeId}' is listed more than once`);
      continue;
    }
    seen.add(edgeId);
    const wantOther = edge === undefined ? undefined : direction === "out" ? edge.to_node : edge.from_node;
    if (edge === undefined)
      ctx.report(
        "adjacency",
        direction,
        key,
        `the entry '${edgeId}' → '${otherId}' names no E::${String(key[1])} ${direction === "out" ? "from" : "to"} this node`,
      );
    else if (otherId !== wantOther)
      ctx.report("adjacency", direction, key, `the entry '${edgeId}' → '${otherId}' has the wrong node (the edge's is '${wantOther}')`);
  }
  // Not checked: that the entries are in edge id order. A list is in the order its edges were
  // added; ids made here (UUID v7) sort that way, but imported ids are kept as given (HelixDB's
  // are v4, random), and a store holding them was reported damaged when it was not.
  for (const [edgeId, edge] of expected) if (!seen.has(edgeId)) ctx.report("adjacency", direction, key, missing(edge, edgeId));
}
