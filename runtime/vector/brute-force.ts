// Exact nearest neighbours: a bounded best-n selection, and an in-memory f64 copy of a small
// type's vectors that can be scanned in well under a millisecond (4096 × 128 multiply-adds).
import { better, similarity, type Metric } from "./metric.js";

export interface Scored {
  readonly slot: number;
  readonly id: string;
  readonly score: number;
}

/** Keeps the n best items pushed (score descending, then id ascending). */
export class TopN {
  /** A heap whose root is the worst item kept. */
  private readonly heap: Scored[] = [];

  constructor(private readonly n: number) {}

  push(item: Scored): void {
    const h = this.heap;
    if (h.length < this.n) {
      h.push(item);
      this.up(h.length - 1);
    } else if (this.n > 0 && better(item.score, item.id, h[0]!.score, h[0]!.id)) {
      h[0] = item;
      this.down(0);
    }
  }

  /** The kept items, best first. */
  sorted(): Scored[] {
    return this.heap.slice().sort((a, b) => (better(a.score, a.id, b.score, b.id) ? -1 : better(b.score, b.id, a.score, a.id) ? 1 : 0));
  }

  /** a is worse than b (belongs nearer the root). */
  private worse(a: Scored, b: Scored): boolean {
    return better(b.score, b.id, a.score, a.id);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.worse(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.worse(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/** One type's vectors by slot, as f64 (the stored values, so scores are exact). */
export class ExactVectors {
  private data: Float64Array;
  private readonly slots: number[] = [];
  private readonly ids: string[] = [];
  private readonly position = new Map<number, number>();

  constructor(readonly dimension: number) {
    this.data = new Float64Array(dimension * 256);
  }

  get size(): number {
    return this.slots.length;
  }

  add(slot: number, id: string, vector: readonly number[]): void {
    let p = this.position.get(slot);
    if (p === undefined) {
      p = this.slots.length;
      if ((p + 1) * this.dimension > this.data.length) {
        const grown = new Float64Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.slots.push(slot);
      this.ids.push(id);
      this.position.set(slot, p);
    }
    this.data.set(vector, p * this.dimension);
  }

  remove(slot: number): void {
    const p = this.position.get(slot);
    if (p === undefined) return;
    const last = this.slots.length - 1;
    if (p !== last) {
      // Move the last vector into the hole.
      this.data.copyWithin(p * this.dimension, last * this.dimension, (last + 1) * this.dimension);
      this.slots[p] = this.slots[last]!;
      this.ids[p] = this.ids[last]!;
      this.position.set(this.slots[p]!, p);
    }
    this.slots.pop();
    this.ids.pop();
    this.position.delete(slot);
  }

  /** The n most similar vectors to `query`, best first. */
  top(query: readonly number[], metric: Metric, n: number): Scored[] {
    const best = new TopN(n);
    const d = this.dimension;
    for (let p = 0; p < this.slots.length; p++) {
      best.push({ slot: this.slots[p]!, id: this.ids[p]!, score: similarity(metric, query, this.data, p * d) });
    }
    return best.sorted();
  }
}
