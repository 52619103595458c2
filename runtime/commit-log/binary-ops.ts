// The changes of the binary databases (edge_ends, the adjacency lists, the pending incoming
// entries), in the order a write made them, packed into one byte string: a log entry's `b`
// (log-entries.ts). A FOR-loop write of 1,000 edges makes ~2,000 of them; as msgpack arrays of
// [name, key, value] their encoding was most of the commit log's CPU, and every one was an array
// and a copy of its value. Packed, each change is written once into a growing buffer.
//
// One op after the other, each a tag byte (kind << 4 | database) and then:
//   put      key (u16 length, bytes), value (u32 length, bytes)
//   remove   key
//   append   key (a list's tail key), entries (u32 length, bytes)
//   fold     nothing: every pending incoming entry folded
//   slice    from, until (each u16 length, bytes; 0xffff: none): the pending keys in [from, until)
// Lengths are little-endian. Decoded, they are the LoggedOps the same changes stand for.
import { FOLD_OP_KEY, type FoldSlice, foldOpBounds } from "../adjacency/pending-in-writes.js";
import type { Key } from "../store/keys.js";
import { LIST_APPEND_OP, type LoggedOp } from "./log-entries.js";

/** The databases whose changes are packed, by their code. */
export const BINARY_DBS = ["edgeEnds", "out", "in", "inPending"] as const;
export type BinaryDbName = (typeof BINARY_DBS)[number];

const PUT = 1;
const REMOVE = 2;
const APPEND = 3;
const FOLD = 4;
const SLICE = 5;
const NO_BOUND = 0xffff;

function dbCode(db: BinaryDbName): number {
  return BINARY_DBS.indexOf(db);
}

/** A write's packed changes, growing as they are made. */
export class BinaryOps {
  private buffer = new Uint8Array(4096);
  private view = new DataView(this.buffer.buffer);
  private at = 0;

  get empty(): boolean {
    return this.at === 0;
  }

  put(db: BinaryDbName, key: Uint8Array, value: Uint8Array): void {
    this.room(1 + 2 + key.length + 4 + value.length);
    this.tag(PUT, db);
    this.short(key);
    this.long(value);
  }

  remove(db: BinaryDbName, key: Uint8Array): void {
    this.room(1 + 2 + key.length);
    this.tag(REMOVE, db);
    this.short(key);
  }

  append(db: "out" | "in", key: Uint8Array, entries: Uint8Array): void {
    this.room(1 + 2 + key.length + 4 + entries.length);
    this.tag(APPEND, db);
    this.short(key);
    this.long(entries);
  }

  /** A fold of every pending incoming entry (null), or of the slice. */
  fold(slice: FoldSlice | null): void {
    if (slice === null) {
      this.room(1);
      this.tag(FOLD, "inPending");
      return;
    }
    this.room(1 + 4 + (slice.from?.length ?? 0) + (slice.until?.length ?? 0));
    this.tag(SLICE, "inPending");
    this.bound(slice.from);
    this.bound(slice.until);
  }

  /** The changes packed so far (a copy). */
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.at);
  }

  private tag(kind: number, db: BinaryDbName): void {
    this.buffer[this.at++] = (kind << 4) | dbCode(db);
  }

  private short(bytes: Uint8Array): void {
    this.view.setUint16(this.at, bytes.length, true);
    this.buffer.set(bytes, this.at + 2);
    this.at += 2 + bytes.length;
  }

  private long(bytes: Uint8Array): void {
    this.view.setUint32(this.at, bytes.length, true);
    this.buffer.set(bytes, this.at + 4);
    this.at += 4 + bytes.length;
  }

  private bound(bytes: Uint8Array | null): void {
    if (bytes === null) {
      this.view.setUint16(this.at, NO_BOUND, true);
      this.at += 2;
    } else this.short(bytes);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.at + bytes));
    grown.set(this.buffer.subarray(0, this.at));
    this.buffer = grown;
    this.view = new DataView(grown.buffer);
  }
}

/** The ops packed in `bytes`, in order (keys and values are views into it). Throws on a malformed string. */
export function decodeBinaryOps(bytes: Uint8Array): LoggedOp[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ops: LoggedOp[] = [];
  let at = 0;
  const room = (length: number): void => {
    if (at + length > bytes.length) throw new Error("a log entry's packed changes end early");
  };
  const take = (length: number): Uint8Array => {
    room(length);
    at += length;
    return bytes.subarray(at - length, at);
  };
  const u16 = (): number => {
    room(2);
    at += 2;
    return view.getUint16(at - 2, true);
  };
  const short = (): Uint8Array => take(u16());
  const long = (): Uint8Array => {
    room(4);
    at += 4;
    return take(view.getUint32(at - 4, true));
  };
  const bound = (): Uint8Array | null => {
    const length = u16();
    return length === NO_BOUND ? null : take(length);
  };
  while (at < bytes.length) {
    const tag = bytes[at++]!;
    const db = BINARY_DBS[tag & 0x0f];
    const kind = tag >> 4;
    if (db === undefined) throw new Error(`a log entry's packed changes name database ${tag & 0x0f}`);
    const key = (): Key => short() as unknown as Key;
    if (kind === PUT) ops.push([db, key(), long()]);
    else if (kind === REMOVE) ops.push([db, key()]);
    else if (kind === APPEND && (db === "out" || db === "in")) ops.push([db, short(), LIST_APPEND_OP, long()]);
    else if (kind === FOLD && db === "inPending") ops.push(["inPending", FOLD_OP_KEY as unknown as Key]);
    else if (kind === SLICE && db === "inPending") {
      const from = bound();
      ops.push(["inPending", FOLD_OP_KEY as unknown as Key, foldOpBounds({ from, until: bound() })]);
    } else throw new Error(`a log entry's packed changes hold an op of kind ${kind} on ${db}`);
  }
  return ops;
}
