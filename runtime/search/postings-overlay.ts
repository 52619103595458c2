// The postings blocks (layout in runtime/search/postings.ts) as one write changes them: blocks it
// changed are held here, decoded, and written to LMDB once, at flush (the end of the write, or
// before a search in it). Without this, every document an UPDATE re-indexed rewrote the blocks of
// each of its terms: a common term's block is up to 12 KiB, so re-indexing 100k documents wrote
// gigabytes of overflow pages, each version kept by LMDB's copy-on-write until the commit (the
// data file grew from 0.2 to 2.4 GB, 0.4 ms per document). Held here, each block is written once
// per write, however many of its documents changed: the same UPDATE leaves a data file of 113 MB
// at 0.19 ms per document. postings-writes.ts makes its changes through PostingsBlocks, so the
// blocks come out byte for byte as if each change had been put at once.
import type { WorkLimit } from "../../core/work-limit.js";
import { blockEntries, encode, type PostingsDb } from "./postings.js";
import type { Key } from "../store/keys.js";

/** A block of one term's list: its key [label, termKey, firstDocNo | TAIL] and its entries. */
export interface PostingsBlock {
  key: Key;
  entries: Uint32Array;
}

/** The blocks as the write sees them; keys are [label, termKey, position] (postings.ts). */
export interface PostingsBlocks {
  get(key: Key): Uint32Array | undefined;
  /**
   * The first block with `from` <= key < `to` (forward), or the last with `from` < key <= `to`
   * (reverse); `from` may be the term's prefix [label, termKey], before every block of it.
   */
  edge(from: Key, to: Key, reverse: boolean): PostingsBlock | undefined;
  /** `owned`: the entries are the caller's to give away (never changed after); else they are copied. */
  put(key: Key, entries: Uint32Array, owned: boolean): void;
  /** Whether get(key) gives the write's own copy of the block, which may be changed in place (then put back). */
  held(key: Key): boolean;
  remove(key: Key): void;
}

/** Key parts of one term's block. */
const label = (key: Key): string => key[0] as string;
const term = (key: Key): string => key[1] as string;
const position = (key: Key): number => key[2] as number;

/** One term's changed blocks. */
interface TermChanges {
  /** position → the block's entries, or null when it was removed. */
  readonly blocks: Map<number, Uint32Array | null>;
  /**
   * The positions of blocks held (not removed), ascending: removing a block's first document
   * re-keys it, so a bulk update leaves one removed position per document it re-indexed, and
   * edge() must not scan those.
   */
  readonly live: number[];
}

/** Index of the first element of sorted `a` that is >= x. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class PostingsOverlay implements PostingsBlocks {
  /** Per term (label, 0x00, termKey). */
  private readonly terms = new Map<string, TermChanges>();

  constructor(private readonly db: PostingsDb) {}

  private changes(key: Key, create: true): TermChanges;
  private changes(key: Key, create: false): TermChanges | undefined;
  private changes(key: Key, create: boolean): TermChanges | undefined {
    const name = `${label(key)}\u0000${term(key)}`;
    let changed = this.terms.get(name);
    if (changed === undefined && create) {
      changed = { blocks: new Map(), live: [] };
      this.terms.set(name, changed);
    }
    return changed;
  }

  get(key: Key): Uint32Array | undefined {
    const held = this.changes(key, false)?.blocks.get(position(key));
    if (held !== undefined) return held ?? undefined;
    const bytes = this.db.get(key);
    return bytes === undefined ? undefined : blockEntries(bytes);
  }

  edge(from: Key, to: Key, reverse: boolean): PostingsBlock | undefined {
    const changed = this.changes(to, false);
    const low = from.length > 2 ? position(from) : Number.NEGATIVE_INFINITY;
    const high = position(to);
    // The nearest block this write changed (and did not remove) in the range.
    let held: PostingsBlock | undefined;
    if (changed !== undefined) {
      const live = changed.live;
      // Forward: the first position >= low, if < high; reverse: the last <= high, if > low.
      const i = reverse ? lowerBound(live, high + 1) - 1 : lowerBound(live, low);
      const at = live[i];
      if (at !== undefined && (reverse ? at > low : at < high)) held = { key: [label(to), term(to), at], entries: changed.blocks.get(at)! };
    }
    // A stored block nearer than that one, unless this write changed it: the changed blocks
    // nearer are all removed ones (a kept one would be `held`), so few are skipped.
    const end = held?.key ?? (reverse ? from : to);
    const range = reverse ? { start: to, end, reverse: true } : { start: from, end };
    for (const { key, value } of this.db.getRange(range)) {
      if (changed?.blocks.has(position(key))) continue;
      return { key, entries: blockEntries(value) };
    }
    return held;
  }

  put(key: Key, entries: Uint32Array, owned: boolean): void {
    const changed = this.changes(key, true);
    const at = position(key);
    if (!changed.blocks.get(at)) {
      const i = lowerBound(changed.live, at);
      if (changed.live[i] !== at) changed.live.splice(i, 0, at);
    }
    changed.blocks.set(at, owned ? entries : entries.slice());
  }

  held(key: Key): boolean {
    return !!this.changes(key, false)?.blocks.get(position(key));
  }

  remove(key: Key): void {
    const changed = this.changes(key, true);
    const at = position(key);
    if (changed.blocks.get(at)) changed.live.splice(lowerBound(changed.live, at), 1);
    changed.blocks.set(at, null);
  }

  /** Writes every changed block to LMDB (removed ones deleted) and forgets them. */
  /** `limit`: the query's time limit, ticked per block written (a rollback follows when it throws). */
  flush(limit?: WorkLimit | null): void {
    for (const [name, changed] of this.terms) {
      const split = name.indexOf("\u0000");
      const prefix = [name.slice(0, split), name.slice(split + 1)];
      for (const [at, entries] of changed.blocks) {
        limit?.tick();
        const key = [...prefix, at];
        if (entries === null) this.db.removeSync(key);
        else this.db.putSync(key, encode(entries));
      }
    }
    this.terms.clear();
  }

  /** The write is rolled back: nothing held is written. */
  clear(): void {
    this.terms.clear();
  }
}
