// The tenants one server holds: each its own store in `<data>/tenants/<name>` (an LMDB environment
// of its own, so every record, index, BM25 statistic, vector index, cache and idempotency record
// belongs to exactly one tenant, and a drop removes a folder), opened on its first request and
// closed again when idle, so idle tenants hold no memory. Each open tenant has its own app
// (its own /mcp connections). Requests in flight keep a tenant open; a drop waits for them.
import type { UnconfirmedChange } from "../cluster/in-sync.js";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { LogPosition } from "../../runtime/replication/protocol.js";
import { lockDirectory } from "../../runtime/store/dir-lock.js";
import { forgetClosedPosition, readClosedPosition, readDroppedSeq, writeClosedPosition, writeDroppedSeq } from "./kept-positions.js";
import type { EngineApp } from "../front-door/engine.js";

/** What the registry needs of a tenant's store: GraphStore satisfies it. */
export interface TenantStore {
  close(): Promise<void>;
  /** Where its commit log stands. */
  position(): LogPosition;
  /** Starts its log after `seq` (a tenant created again after a drop); absent: it cannot. */
  continueLogAfter?(seq: number): Promise<unknown>;
}

export interface TenantRegistryOptions<S extends TenantStore> {
  /** `<data>/tenants`: one folder per tenant. */
  root: string;
  /** Opens (creating when absent) the store in a tenant's folder; throws when it cannot. */
  open: (dir: string) => S;
  /** The app that answers a tenant's requests over its store. */
  appFor: (name: string, store: S) => EngineApp;
  /** Close a tenant unused this long (default 60 s). */
  idleMs?: number;
  /** A tenant's request ended at sequence `seq`, or (null) the tenant was dropped: the replicas' feed (tenant-feed.ts). */
  changed?: (name: string, at: LogPosition | null) => void;
  /** Why this node takes no write now (a replica's 421): no tenant is created or dropped then; null: it does. */
  writeRefusal?: () => Error | null;
  /** Resolves once a creation or drop is held where it must be (a leader's synchronous replicas); throws NOT_REPLICATED when not. */
  confirmed?: (change: UnconfirmedChange) => Promise<void>;
  /** Tenants open at once at most; past it the least recently used idle one closes (default 256). */
  maxOpen?: number;
  /** A tenant's store has closed (idle-release.ts). */
  closed?: () => void;
  now?: () => number;
}

export interface OpenTenant<S extends TenantStore> {
  readonly name: string;
  readonly store: S;
  readonly app: EngineApp;
  lastUsed: number;
  inFlight: number;
  drained: (() => void)[];
}

const DATA_FILE = "data.mdb";
/** Beside `<data>/tenants`: folders of tenants a replica set aside (setAside). */
const SET_ASIDE_DIR = "tenants-set-aside";

export class TenantRegistry<S extends TenantStore> {
  private readonly opened = new Map<string, OpenTenant<S>>();
  private readonly closing = new Map<string, Promise<void>>();
  private readonly dropping = new Set<string>();
  /** Tenants whose store is being replaced (`replace`): requests wait for it. */
  private readonly replacing = new Map<string, Promise<void>>();
  private readonly idleMs: number;
  private readonly maxOpen: number;
  private readonly now: () => number;
  /** Requests that asked for a tenant since start (idle-release.ts waits for it to stand still). */
  acquisitions = 0;

  constructor(private readonly options: TenantRegistryOptions<S>) {
    this.idleMs = options.idleMs ?? 60_000;
    this.maxOpen = options.maxOpen ?? 256;
    this.now = options.now ?? Date.now;
  }

  /** Whether the tenant has a store (open or on disk). */
  exists(name: string): boolean {
    return this.opened.has(name) || existsSync(join(this.options.root, name, DATA_FILE));
  }

  /** The tenant's folder (it may not exist). */
  dirOf(name: string): string {
    return join(this.options.root, name);
  }

  /** Every tenant with a store, by name. */
  names(): string[] {
    if (!existsSync(this.options.root)) return [];
    return readdirSync(this.options.root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(this.options.root, d.name, DATA_FILE)))
      .map((d) => d.name)
      .sort();
  }

  /** Where the tenant's log stands: read from the open store or its closed marker; null when neither tells (it crashed while open). */
  positionOf(name: string): LogPosition | null {
    const open = this.opened.get(name);
    if (open !== undefined) return open.store.position();
    return readClosedPosition(join(this.options.root, name));
  }

  /** The stores of the tenants open now. */
  openStores(): S[] {
    return [...this.opened.values()].map((t) => t.store);
  }

  get openCount(): number {
    return this.opened.size;
  }

  isOpen(name: string): boolean {
    return this.opened.has(name);
  }

  /**
   * The tenant, opened if it is not, held for one request until `release`; null when it has no
   * store and `create` is false, or while it is being dropped.
   */
  async acquire(name: string, create: boolean): Promise<OpenTenant<S> | null> {
    this.acquisitions++;
    for (;;) {
      const closing = this.closing.get(name) ?? this.replacing.get(name);
      if (closing === undefined) break;
      await closing;
    }
    if (this.dropping.has(name)) return null;
    let tenant = this.opened.get(name);
    if (tenant === undefined) {
      const created = !this.exists(name);
      if (!create && created) return null;
      const dir = join(this.options.root, name);
      mkdirSync(dir, { recursive: true });
      // Its closed marker stays until the store's first change (kept-positions.ts).
      const store = this.options.open(dir);
      tenant = { name, store, app: this.options.appFor(name, store), lastUsed: this.now(), inFlight: 1, drained: [] };
      const dropped = created ? readDroppedSeq(dirname(this.options.root), name) : null;
      if (dropped !== null && store.continueLogAfter !== undefined) {
        // Created again after a drop: requests for it wait until its log continues the old one.
        let done = (): void => {};
        this.replacing.set(name, new Promise<void>((resolve) => (done = resolve)));
        try {
          await store.continueLogAfter(dropped);
        } finally {
          this.replacing.delete(name);
          done();
        }
      }
      this.opened.set(name, tenant);
      this.closeOverflow();
      return tenant;
    }
    tenant.inFlight++;
    tenant.lastUsed = this.now();
    return tenant;
  }

  /** Why tenants cannot be created or dropped on this node now (it is a replica), or null. */
  writeRefusal(): Error | null {
    return this.options.writeRefusal?.() ?? null;
  }

  /** Resolves once the creations and drops so far are acknowledged (see the option); at once without synchronous replicas. */
  confirmed(change: UnconfirmedChange): Promise<void> {
    return this.options.confirmed?.(change) ?? Promise.resolve();
  }

  release(tenant: OpenTenant<S>): void {
    this.options.changed?.(tenant.name, tenant.store.position());
    tenant.inFlight--;
    tenant.lastUsed = this.now();
    if (tenant.inFlight === 0) for (const done of tenant.drained.splice(0)) done();
  }

  /**
   * Closes the tenants idle longer than the idle time, one per turn of the event loop: closing a
   * store is synchronous work (~0.3 ms), and a sweep may find thousands idle, which closed at once
   * held every request meanwhile (first requests to idle tenants waited up to 40-80 ms).
   */
  async sweep(): Promise<void> {
    const cutoff = this.now() - this.idleMs;
    const closing: Promise<void>[] = [];
    for (const t of [...this.opened.values()]) {
      // Asked again at its turn: a request may have taken it meanwhile.
      if (t.inFlight > 0 || t.lastUsed > cutoff) continue;
      closing.push(this.close(t));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    await Promise.all(closing);
  }

  /**
   * Removes the tenant and all its data, once its requests in flight have finished; false when it
   * has none, or when `keep` (asked once they have finished) says to keep it. Throws
   * DirectoryLockedError when another process holds the tenant's folder (strand verify, a shell).
   */
  async drop(name: string, keep?: (store: S) => boolean): Promise<boolean> {
    return this.remove(name, (dir) => rmSync(dir, { recursive: true, force: true }), keep);
  }

  /** Closes the tenant once its requests have ended, and takes its folder away by `takeAway`; see drop. */
  private async remove(name: string, takeAway: (dir: string) => void, keep?: (store: S) => boolean): Promise<boolean> {
    if (!this.exists(name) || this.dropping.has(name)) return false;
    this.dropping.add(name);
    try {
      const tenant = this.opened.get(name);
      if (tenant !== undefined) {
        if (tenant.inFlight > 0) await new Promise<void>((resolve) => tenant.drained.push(resolve));
        if (keep?.(tenant.store) === true) return false;
        await this.close(tenant);
      } else if (keep !== undefined) return false;
      await this.closing.get(name);
      const dir = join(this.options.root, name);
      const last = (readClosedPosition(dir) ?? (await this.positionByOpening(dir))).seq;
      const unlock = lockDirectory(dir); // not from under another process
      try {
        takeAway(dir);
      } finally {
        unlock();
      }
      writeDroppedSeq(dirname(this.options.root), name, last);
      this.options.changed?.(name, null);
      return true;
    } finally {
      this.dropping.delete(name);
    }
  }

  /** The position of a closed tenant that left no marker (its process died with it open): its store opened to tell. */
  private async positionByOpening(dir: string): Promise<LogPosition> {
    const store = this.options.open(dir);
    try {
      return store.position();
    } finally {
      await store.close();
    }
  }

  /**
   * Closes the tenant once its requests in flight have finished, runs `install` on its folder (a
   * replica puts its leader's copy there), and lets requests open it again; they wait meanwhile.
   */
  async replace(name: string, install: (dir: string) => void): Promise<void> {
    let finish = (): void => {};
    const replacing = new Promise<void>((resolve) => {
      finish = resolve;
    });
    while (this.replacing.has(name)) await this.replacing.get(name);
    this.replacing.set(name, replacing);
    try {
      const tenant = this.opened.get(name);
      if (tenant !== undefined) {
        if (tenant.inFlight > 0) await new Promise<void>((resolve) => tenant.drained.push(resolve));
        await this.close(tenant);
      }
      await this.closing.get(name);
      const dir = join(this.options.root, name);
      mkdirSync(dir, { recursive: true });
      forgetClosedPosition(dir);
      install(dir);
    } finally {
      this.replacing.delete(name);
      finish();
    }
  }

  /**
   * Like a drop, but the tenant's folder is moved to `<root>/../tenants-set-aside/<name>-<time>`
   * instead of removed (a replica keeps a tenant its leader does not have, as a re-seed keeps what
   * it replaces); that path, or null when the tenant has no store.
   */
  async setAside(name: string): Promise<string | null> {
    const to = join(dirname(this.options.root), SET_ASIDE_DIR, `${name}-${this.now()}`);
    const moved = await this.remove(name, (dir) => {
      mkdirSync(dirname(to), { recursive: true });
      renameSync(dir, to);
    });
    return moved ? to : null;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.opened.values()].map((t) => this.close(t)));
    await Promise.all(this.closing.values());
  }

  private closeOverflow(): void {
    if (this.opened.size <= this.maxOpen) return;
    const idle = [...this.opened.values()].filter((t) => t.inFlight === 0).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const t of idle.slice(0, this.opened.size - this.maxOpen)) void this.close(t);
  }

  /** Whether a request holds a tenant or a tenant is closing now. */
  get busy(): boolean {
    if (this.closing.size > 0) return true;
    for (const t of this.opened.values()) if (t.inFlight > 0) return true;
    return false;
  }

  private close(tenant: OpenTenant<S>): Promise<void> {
    if (this.opened.get(tenant.name) !== tenant) return this.closing.get(tenant.name) ?? Promise.resolve();
    this.opened.delete(tenant.name);
    const at = tenant.store.position();
    const dir = join(this.options.root, tenant.name);
    const closing = tenant.store
      .close()
      .then(() => {
        writeClosedPosition(dir, at);
        this.options.closed?.();
      })
      .finally(() => this.closing.delete(tenant.name));
    this.closing.set(tenant.name, closing);
    return closing;
  }
}
