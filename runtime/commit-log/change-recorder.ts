// Which keys a write transaction changes, for the commit log (runtime/commit-log/log-entries.ts). The
// graph writer and its hooks are handed `recordingDbs`: the same databases, whose putSync and
// removeSync also note (database, key) while a recording is open. At the end of the transaction
// the log entry takes each noted key's value as it now stands (read in the transaction), so what
// is logged is exactly what was written, in whatever encoding the writer chose, each key once.
import type { Database } from "lmdb";
import type { StoreDbs } from "../store/dbs.js";
import type { Key } from "../store/keys.js";
import type { LastKey } from "../store/append-put.js";
import { appendToList, LOGGED_APPEND } from "../adjacency/list-writes.js";
import type { KeyedOp, LoggedDbName } from "./log-entries.js";
import { BINARY_DBS, type BinaryDbName, BinaryOps } from "./binary-ops.js";
import type { FoldSlice } from "../adjacency/pending-in-writes.js";

interface Noted {
  db: LoggedDbName;
  key: Key;
  /** True when `value` is the key's value now (undefined: removed), so take() need not read it. */
  known: boolean;
  value: Uint8Array | undefined;
}

/**
 * Databases whose values are stored as the bytes given (lmdb's `binary` encoding, store/dbs.ts):
 * what a `putSync(key, bytes)` leaves is exactly those bytes, so the recorder keeps a copy
 * instead of reading the value back at the end (a FOR-loop ingest of 1,000 edges changes ~2,000
 * such keys per transaction). Their changes are logged in the order made, each as made, rather
 * than once per key by a text of the key: replayed in order they leave the same bytes, and
 * noting costs no key text and no map entry (keys are rarely changed twice in a transaction:
 * the adjacency buffer writes each list once per flush). Not `bm25_post`: a write that changes
 * many documents rewrites the same postings blocks (up to 12 KiB) once per document, and the
 * entry held every version (20 MB for renaming 3,000 nodes; a bulk UPDATE of 100k failed its
 * commit after growing to GBs), so its keys are noted once and their values read at the end.
 */
const BYTES_AS_GIVEN: ReadonlySet<LoggedDbName> = new Set<LoggedDbName>(BINARY_DBS);

/** A text naming the key within its database: JSON for lmdb's array and scalar keys, the bytes for binary ones. */
function keyText(key: Key): string {
  if (key instanceof Uint8Array) return `b${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1")}`;
  return JSON.stringify(key);
}

export class ChangeRecorder {
  private noted: Map<string, Noted> | null = null;
  /** Changes of BYTES_AS_GIVEN databases, in the order made, packed (binary-ops.ts). */
  private packed = new BinaryOps();

  /** Whether a recording is open (a write that records its changes is running). */
  get active(): boolean {
    return this.noted !== null;
  }

  /** A write transaction's callback starts. */
  begin(): void {
    this.noted = new Map();
    this.packed = new BinaryOps();
  }

  /** A change of a BYTES_AS_GIVEN database: `value` now (copied here), or undefined: removed. */
  noteInOrder(db: LoggedDbName, key: Key, value: Uint8Array | undefined): void {
    if (this.noted === null) return; // a write outside a logged transaction
    const name = binaryDb(db);
    const bytes = key as unknown as Uint8Array;
    if (value === undefined) this.packed.remove(name, bytes);
    else this.packed.put(name, bytes, value);
  }

  /** A list's append (adjacency/list-writes.ts), in order with the changes around it. */
  noteAppend(db: "out" | "in", key: Uint8Array, entries: Uint8Array): void {
    if (this.noted !== null) this.packed.append(db, key, entries);
  }

  /** A fold of the pending incoming entries (null: all of them), in order after the write's own. */
  noteFold(slice: FoldSlice | null): void {
    if (this.noted !== null) this.packed.fold(slice);
  }

  /** `known`: `value` is what the key now holds (undefined: removed); otherwise take() reads it. */
  note(db: LoggedDbName, key: Key, known = false, value?: Uint8Array): void {
    if (this.noted === null) return; // a write outside a logged transaction (the open's rebuilds)
    this.noted.set(`${db}\u0000${keyText(key)}`, { db, key, known, value });
  }

  /**
   * The callback ends: each noted key with its value now (`dbs` read inside the transaction), and
   * the packed changes (null: none). The two touch disjoint databases: their order is free.
   */
  take(dbs: StoreDbs): { ops: KeyedOp[]; packed: Uint8Array | null } {
    const noted = this.noted;
    const packed = this.packed;
    this.noted = null;
    this.packed = new BinaryOps();
    if (noted === null) return { ops: [], packed: null };
    const ops: KeyedOp[] = [];
    for (const { db, key, known, value: given } of noted.values()) {
      const value: unknown = known ? given : (dbs[db] as Database<unknown, Key>).get(key);
      ops.push(value === undefined ? [db, key] : [db, key, value]);
    }
    return { ops, packed: packed.empty ? null : packed.bytes() };
  }

  /** The callback failed: nothing of it is logged. */
  discard(): void {
    this.noted = null;
    this.packed = new BinaryOps();
  }
}

function binaryDb(db: LoggedDbName): BinaryDbName {
  if (!BYTES_AS_GIVEN.has(db)) throw new Error(`${db}: its changes are not recorded in order`);
  return db as BinaryDbName;
}

const LOGGED_METHODS = new Set<PropertyKey>(["putSync", "removeSync", "put", "remove"]);

/** `dbs` whose databases note every key they are asked to change into `recorder`. */
export function recordingDbs(dbs: StoreDbs, recorder: ChangeRecorder): StoreDbs {
  const wrapped: Record<string, unknown> = { ...dbs };
  for (const name of Object.keys(dbs) as (keyof StoreDbs)[]) {
    if (name === "env" || name === "meta" || name === "commitLog") continue;
    wrapped[name] = recordingDb(dbs[name] as Database<unknown, Key>, name, recorder);
  }
  return wrapped as unknown as StoreDbs;
}

function recordingDb(db: Database<unknown, Key>, name: LoggedDbName, recorder: ChangeRecorder): Database<unknown, Key> {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      const cached = bound.get(prop);
      if (cached !== undefined) return cached;
      if (prop === LOGGED_APPEND) {
        if (name !== "out" && name !== "in") return undefined;
        const append = loggedAppend(target, name, recorder);
        bound.set(prop, append);
        return append;
      }
      const member: unknown = Reflect.get(target, prop, target);
      if (typeof member !== "function") return member;
      const fn = member as (...args: unknown[]) => unknown;
      const asGiven = BYTES_AS_GIVEN.has(name);
      const call =
        asGiven && prop === "putSync"
          ? (key: Key, ...rest: unknown[]) => {
              const value = rest[0];
              if (!(value instanceof Uint8Array)) throw new Error(`${name}: putSync of a value that is not bytes`);
              const done = fn.call(target, key, ...rest);
              // The bytes are copied as they are noted (the caller may reuse its buffer), unless
              // the put was refused (an append whose key is not the last: nothing was written).
              if (done !== false && recorder.active) recorder.noteInOrder(name, key, value);
              return done;
            }
          : asGiven && prop === "removeSync"
            ? (key: Key, ...rest: unknown[]) => {
                if (rest.length > 0) throw new Error(`${name}: removeSync of one value is not recorded`);
                const removed = fn.call(target, key);
                // A plain remove leaves no value, whether or not the key was there.
                recorder.noteInOrder(name, key, undefined);
                return removed;
              }
            : asGiven && LOGGED_METHODS.has(prop)
              ? () => {
                  throw new Error(`${name}: only putSync and removeSync are recorded in order`);
                }
              : LOGGED_METHODS.has(prop)
                ? (key: Key, ...rest: unknown[]) => {
                    recorder.note(name, key);
                    return fn.call(target, key, ...rest);
                  }
                : fn.bind(target);
      bound.set(prop, call);
      return call;
    },
  });
}

/** A list's append on the database itself, logged as one op (the entries) in order with the changes around it. */
function loggedAppend(
  db: Database<unknown, Key>,
  name: "out" | "in",
  recorder: ChangeRecorder,
): (key: Uint8Array, entries: Uint8Array, last: LastKey) => void {
  return (key, entries, last) => {
    appendToList(db as unknown as Parameters<typeof appendToList>[0], key, entries, last);
    recorder.noteAppend(name, key, entries);
  };
}
