// The part of etcd a failover group uses, in memory: keys with create and modify revisions,
// transactions that compare them, leases that take their keys with them, and watches. Every
// change happens at once and is told to watchers synchronously, in order; when and whether a
// member hears of it is memory-group.ts's business (its network).

export interface StoredKey {
  readonly value: string;
  /** The revision that created the key (0 in a compare: the key is absent). */
  readonly createRevision: number;
  readonly modRevision: number;
  readonly lease: number | null;
}

/** A transaction's condition, as etcd compares: an absent key has revisions 0 and no value. */
export type Compare =
  | { readonly key: string; readonly create: number }
  | { readonly key: string; readonly mod: number }
  | { readonly key: string; readonly value: string };

export type Write = { readonly put: string; readonly value: string; readonly lease?: number } | { readonly delete: string };

/** A change to a key: its new value, or null when it was deleted. */
export type KeyEvent = { readonly key: string; readonly value: string | null };

export class MemoryEtcd {
  private revision = 0;
  private nextLease = 1;
  private readonly keys = new Map<string, StoredKey>();
  private readonly leases = new Set<number>();
  /** Leases whose time ran out, their keys not yet deleted (lapseLease). */
  private readonly lapsed = new Set<number>();
  private readonly watchers = new Set<(event: KeyEvent) => void>();

  get(key: string): StoredKey | null {
    return this.keys.get(key) ?? null;
  }

  /** Values of the keys under `prefix`, in key order. */
  values(prefix: string): string[] {
    return [...this.keys.entries()]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, stored]) => stored.value);
  }

  /** Applies `writes` (one revision) when every compare holds; false otherwise (nothing written). */
  txn(compares: readonly Compare[], writes: readonly Write[]): boolean {
    if (!compares.every((c) => this.holds(c))) return false;
    for (const w of writes) if ("put" in w && w.lease !== undefined && !this.leases.has(w.lease)) throw leaseNotFound();
    if (writes.length === 0) return true;
    this.revision++;
    for (const w of writes) {
      if ("put" in w) this.store(w.put, w.value, w.lease ?? null);
      else this.remove(w.delete);
    }
    return true;
  }

  put(key: string, value: string, lease?: number): void {
    this.txn([], [lease === undefined ? { put: key, value } : { put: key, value, lease }]);
  }

  delete(key: string): void {
    if (this.keys.has(key)) this.txn([], [{ delete: key }]);
  }

  grantLease(): number {
    const id = this.nextLease++;
    this.leases.add(id);
    return id;
  }

  leaseAlive(id: number): boolean {
    return this.leases.has(id);
  }

  /** Whether the lease still holds keys: alive, or lapsed and not yet ended. */
  leaseHeld(id: number): boolean {
    return this.leases.has(id) || this.lapsed.has(id);
  }

  /**
   * A lease's time runs out but its revoke has not gone through yet: it cannot be renewed, and
   * its keys stay until endLease (a loaded etcd can take seconds between the two).
   */
  lapseLease(id: number): void {
    if (this.leases.delete(id)) this.lapsed.add(id);
  }

  /** Ends a lease (revoked, or expired): its keys are deleted with it. */
  endLease(id: number): void {
    if (!this.leases.delete(id) && !this.lapsed.delete(id)) return;
    const bound = [...this.keys.entries()].filter(([, stored]) => stored.lease === id).map(([key]) => key);
    if (bound.length > 0)
      this.txn(
        [],
        bound.map((key) => ({ delete: key })),
      );
  }

  /** Deletes every key, as if etcd's data were lost; leases live on. */
  deleteAll(): void {
    const all = [...this.keys.keys()];
    if (all.length > 0)
      this.txn(
        [],
        all.map((key) => ({ delete: key })),
      );
  }

  /** Calls `listener` with every change of every key, in order; returns its removal. */
  watch(listener: (event: KeyEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  private holds(c: Compare): boolean {
    const stored = this.keys.get(c.key);
    if ("create" in c) return (stored?.createRevision ?? 0) === c.create;
    if ("mod" in c) return (stored?.modRevision ?? 0) === c.mod;
    return stored !== undefined && stored.value === c.value;
  }

  private store(key: string, value: string, lease: number | null): void {
    const createRevision = this.keys.get(key)?.createRevision ?? this.revision;
    this.keys.set(key, { value, createRevision, modRevision: this.revision, lease });
    this.tell({ key, value });
  }

  private remove(key: string): void {
    if (this.keys.delete(key)) this.tell({ key, value: null });
  }

  private tell(event: KeyEvent): void {
    for (const watcher of [...this.watchers]) watcher(event);
  }
}

function leaseNotFound(): Error {
  return new Error("etcdserver: requested lease not found");
}
