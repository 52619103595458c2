// What the kill -9 campaign believes the store holds: every acknowledged write, and per writer
// lane the one write whose answer had not arrived when the server was killed (it may or may not
// have been committed; a FOR ingest wholly or not at all). Each lane writes only to its own
// records, so a lane's acknowledged writes are ordered.

export interface ItemState {
  key: string;
  id: string;
  grp: number;
  text: string;
  /** The term only this item's current text holds, for the BM25 check. */
  token: string;
  n: number;
  alive: boolean;
}

export interface LinkState {
  id: string;
  from: string;
  to: string;
  w: number;
}

export interface VecState {
  key: string;
  id: string;
  v: number[];
  alive: boolean;
}

export type InFlight =
  | { kind: "add"; keys: string[] } // AddItem (one key) or Ingest (all or none)
  | { kind: "update"; key: string; text: string; token: string; n: number }
  | { kind: "drop"; key: string }
  | { kind: "link"; from: string; to: string; w: number }
  | { kind: "addVec"; key: string }
  | { kind: "dropVec"; key: string };

export class Model {
  readonly items = new Map<string, ItemState>();
  readonly links = new Map<string, LinkState>();
  readonly vecs = new Map<string, VecState>();
  /** Per lane, the write sent but not answered when the server died. */
  readonly inFlight = new Map<number, InFlight>();
  /** Keys each lane created (its own records), alive or not. */
  readonly laneItems = new Map<number, string[]>();
  readonly laneVecs = new Map<number, string[]>();
  /** Keys written since the last check: each is also looked up through its index. */
  readonly touched = new Set<string>();

  addItem(lane: number, item: ItemState): void {
    this.items.set(item.key, item);
    this.touched.add(item.key);
    const own = this.laneItems.get(lane) ?? [];
    own.push(item.key);
    this.laneItems.set(lane, own);
  }

  addVec(lane: number, vec: VecState): void {
    this.vecs.set(vec.key, vec);
    const own = this.laneVecs.get(lane) ?? [];
    own.push(vec.key);
    this.laneVecs.set(lane, own);
  }

  dropItem(key: string): void {
    const item = this.items.get(key);
    if (item === undefined) return;
    item.alive = false;
    this.touched.add(key);
    // Dropping a node drops its edges both ways.
    for (const [id, link] of this.links) if (link.from === item.id || link.to === item.id) this.links.delete(id);
  }

  liveItems(lane: number): ItemState[] {
    // An ingested item's id is known only after the next check reads it back.
    return (this.laneItems.get(lane) ?? []).map((k) => this.items.get(k)!).filter((i) => i.alive && i.id !== "");
  }

  liveVecs(lane: number): VecState[] {
    return (this.laneVecs.get(lane) ?? []).map((k) => this.vecs.get(k)!).filter((v) => v.alive);
  }

  itemById(id: string): ItemState | undefined {
    for (const item of this.items.values()) if (item.id === id) return item;
    return undefined;
  }
}
