// A replica's side of its leader's tenants. One long poll of the leader's tenant feed
// (GET /replication/tenants, server/tenants/tenant-feed.ts) says which tenants changed; each of
// those is brought up to the leader's sequence from its own commit log
// (/t/<tenant>/replication/log, applied in one transaction per answer, as the project's graph is
// by runtime/replication/follower.ts), or seeded from its backup when it is new here, when the
// leader no longer keeps what it needs, or when its history is not the leader's (410 LOG_GONE).
// Tenants the leader dropped are dropped here. The feed's version advances only once every tenant
// it named is in step, so a failure (the leader away, a full disk) is retried from where it was.
import { randomUUID } from "node:crypto";
import type { LeaderAccess } from "../../runtime/replication/leader-fetch.js";
import { leaderFetch } from "../../runtime/replication/leader-fetch.js";
import {
  COMMIT_HEADER,
  decodeFrames,
  LOG_FIRST_HEADER,
  LOG_PATH,
  SCHEMA_HEADER,
  TENANTS_FEED_PATH,
} from "../../runtime/replication/protocol.js";
import type { LogPosition, TenantChange, TenantFeedAnswer } from "../../runtime/replication/protocol.js";
import { downloadSeed, installSeed, keptNote } from "../../runtime/replication/seed.js";
import { retryPause } from "../../runtime/replication/retry-pause.js";

/** What the sync needs of a tenant's open store (TenantHandle satisfies it). */
export interface SyncedStore {
  position(): LogPosition;
  timeOf(seq: number): number | null;
  applyLogEntries(first: number, frames: readonly Uint8Array[]): Promise<number>;
}

/** What the sync needs of the registry (TenantRegistry satisfies it). */
export interface SyncedTenants<S extends SyncedStore> {
  names(): string[];
  exists(name: string): boolean;
  /** The tenant's folder. */
  dirOf(name: string): string;
  positionOf(name: string): LogPosition | null;
  acquire(name: string, create: boolean): Promise<{ readonly store: S } | null>;
  release(tenant: { readonly store: S }): void;
  replace(name: string, install: (dir: string) => void): Promise<void>;
  drop(name: string): Promise<boolean>;
  /** Moves the tenant's folder out of the served ones; where to (null: it had none). */
  setAside(name: string): Promise<string | null>;
}

export interface TenantSyncOptions<S extends SyncedStore> {
  leader: LeaderAccess;
  tenants: SyncedTenants<S>;
  /** The schema fingerprint this replica serves: a tenant log of another is refused. */
  fingerprint: string;
  warn: (line: string) => void;
  /** How long one poll of the feed waits for a change (ms; default 5000). */
  waitMs?: number;
  /** Tenants brought up to date at once (default 4). */
  concurrency?: number;
  /** In a failover group, this node's member id: its polls then acknowledge the versions it holds. */
  member?: string;
}

const MAX_PAUSE_MS = 5_000;
/** Before asking again from the same version after an answer that left a tenant behind. */
const NOT_IN_STEP_PAUSE_MS = 50;

interface Waiter {
  seq: number;
  done: (reached: boolean) => void;
}
/** Entries one log answer carries at most are the leader's (protocol.ts); this bounds the rounds per tenant. */
const MAX_ROUNDS = 10_000;

export class TenantSync<S extends SyncedStore> {
  private stopped = false;
  private running: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private readonly id = randomUUID();
  /** Reads waiting for a tenant to reach a sequence (Strand-After), by tenant. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** The last version of the leader's feed applied. */
  private version = 0;

  constructor(private readonly options: TenantSyncOptions<S>) {}

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    for (const waiters of [...this.waiting.values()]) for (const waiter of waiters) waiter.done(false);
    await this.running;
  }

  /** Resolves true once `name` holds sequence `seq` here, false after `ms` without it (or when the sync stops). */
  waitForPosition(name: string, seq: number, ms: number): Promise<boolean> {
    if (this.holds(name, seq)) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = { seq, done: (reached) => settle(reached) };
      const settle = (reached: boolean): void => {
        clearTimeout(timer);
        const left = (this.waiting.get(name) ?? []).filter((w) => w !== waiter);
        if (left.length === 0) this.waiting.delete(name);
        else this.waiting.set(name, left);
        resolve(reached);
      };
      const timer = setTimeout(() => settle(false), ms);
      this.waiting.set(name, [...(this.waiting.get(name) ?? []), waiter]);
    });
  }

  private holds(name: string, seq: number): boolean {
    const tenants = this.options.tenants;
    return tenants.exists(name) && (tenants.positionOf(name)?.seq ?? -1) >= seq;
  }

  /** The tenant moved (entries applied, or seeded): wakes the reads waiting for what it now holds. */
  private moved(name: string): void {
    for (const waiter of this.waiting.get(name) ?? []) if (this.holds(name, waiter.seq)) waiter.done(true);
  }

  private async run(): Promise<void> {
    let feed: string | undefined;
    let pause = 100;
    let inStep = true;
    while (!this.stopped) {
      try {
        const wait = this.options.waitMs ?? 5_000;
        const member = this.options.member === undefined ? "" : `&member=${encodeURIComponent(this.options.member)}`;
        // Not waiting after an answer that left a tenant behind: asked again at once from the same version.
        const query = `?since=${this.version}&wait=${inStep ? wait : 0}${member}${feed === undefined ? "" : `&feed=${encodeURIComponent(feed)}`}`;
        const res = await leaderFetch(this.options.leader, TENANTS_FEED_PATH + query, wait + 15_000, this.abort.signal);
        if (!res.ok) throw new Error(`${TENANTS_FEED_PATH}: ${res.status} ${await res.text()}`);
        const answer = (await res.json()) as TenantFeedAnswer;
        inStep = await this.apply(answer);
        // The next poll from this version tells the leader every change up to it is held here (its
        // acknowledgement of the tenants' writes, with synchronous replicas): only once it is.
        if (inStep) {
          feed = answer.feed;
          this.version = answer.version;
        } else await retryPause(NOT_IN_STEP_PAUSE_MS, this.abort.signal); // not a busy loop should a tenant's log keep answering 404
        pause = 100;
      } catch (error) {
        if (this.stopped) return;
        this.options.warn(
          `strand: following ${this.options.leader.url}'s tenants: ${(error as Error).message}; trying again in ${pause} ms`,
        );
        await retryPause(pause, this.abort.signal);
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  /**
   * Brings every tenant the answer names into step, and drops the ones the leader dropped; false
   * when one could not be (dropped on the leader after the answer was made: the next answer says so).
   */
  private async apply(answer: TenantFeedAnswer): Promise<boolean> {
    const { tenants } = this.options;
    const dropped = new Set(answer.dropped);
    for (const name of dropped) await tenants.drop(name);
    if (answer.full) {
      // Here but not on the leader: dropped while this replica was away, or created in another
      // history (an old leader's unacknowledged writes). Not served any more, and kept, as a re-seed keeps what it replaces.
      const listed = new Set(answer.tenants.map((t) => t.name));
      for (const name of tenants.names()) {
        if (listed.has(name) || dropped.has(name)) continue;
        const kept = await tenants.setAside(name);
        if (kept !== null)
          this.options.warn(
            `strand: the tenant "${name}" is not on the leader ${this.options.leader.url} (dropped while this replica was away, or another history): set aside as ${kept}`,
          );
        dropped.add(name);
      }
    }
    const behind = answer.tenants.filter((t) => !dropped.has(t.name) && !samePosition(t.at, tenants.positionOf(t.name)));
    let inStep = true;
    await inParallel(behind, this.options.concurrency ?? 4, async (t) => {
      if (!(await this.bringUp(t))) inStep = false;
    });
    return inStep;
  }

  /**
   * Applies the tenant's log entries until none is left; seeds it first when it is new here or the
   * log cannot serve it. False when the leader no longer has it (dropped after the feed named it).
   */
  private async bringUp(change: TenantChange): Promise<boolean> {
    const { tenants } = this.options;
    const { name } = change;
    if (!tenants.exists(name)) await this.seed(name);
    let outcome: "more" | "done" | "gone" | "dropped" = "more";
    for (let round = 0; round < MAX_ROUNDS && !this.stopped; round++) {
      const held = await tenants.acquire(name, false);
      if (held === null) return false;
      try {
        outcome = await this.pull(name, held.store);
      } finally {
        tenants.release(held);
      }
      if (outcome === "done" || outcome === "dropped") break;
      if (outcome === "gone") await this.seed(name);
    }
    this.moved(name);
    return outcome === "done";
  }

  /** One log answer for the tenant, applied. */
  private async pull(name: string, store: S): Promise<"more" | "done" | "gone" | "dropped"> {
    const after = store.position().seq;
    const time = after > 0 ? store.timeOf(after) : null;
    const query = `?after=${after}&wait=0${time === null ? "" : `&time=${time}`}&follower=${this.id}`;
    const res = await leaderFetch(this.options.leader, `/t/${name}${LOG_PATH}${query}`, 30_000, this.abort.signal);
    if (res.status === 410) {
      await res.body?.cancel();
      return "gone";
    }
    // The tenant was dropped on the leader after the feed named it: the next answer says so.
    if (res.status === 404) {
      await res.body?.cancel();
      return "dropped";
    }
    if (!res.ok) throw new Error(`/t/${name}${LOG_PATH}: ${res.status} ${await res.text()}`);
    const schema = res.headers.get(SCHEMA_HEADER);
    if (schema !== null && schema !== this.options.fingerprint) {
      await res.body?.cancel();
      throw new Error(`the leader's schema fingerprint is ${schema}, this replica's ${this.options.fingerprint}`);
    }
    const frames = decodeFrames(new Uint8Array(await res.arrayBuffer()));
    if (frames.length === 0) return "done";
    await store.applyLogEntries(Number(res.headers.get(LOG_FIRST_HEADER)), frames);
    this.moved(name);
    return store.position().seq >= Number(res.headers.get(COMMIT_HEADER) ?? "0") ? "done" : "more";
  }

  /** Replaces (or creates) the tenant's store by the leader's backup of it, downloaded beside it while it serves. */
  private async seed(name: string): Promise<void> {
    const { tenants, leader } = this.options;
    const before = tenants.positionOf(name)?.seq;
    const existed = tenants.exists(name);
    const file = await downloadSeed(leader, tenants.dirOf(name), undefined, `/t/${encodeURIComponent(name)}`);
    let kept: string | null = null;
    await tenants.replace(name, (dir) => {
      kept = installSeed(file, dir, `seq-${before ?? "unknown"}`);
    });
    if (existed) this.options.warn(`strand: re-seeded the tenant "${name}" from ${leader.url}${keptNote(kept)}`);
    this.moved(name);
  }
}

/** Whether two log positions are known and the same (the same sequence, committed at the same time: the same history). */
function samePosition(a: LogPosition | null, b: LogPosition | null): boolean {
  return a !== null && b !== null && a.seq === b.seq && a.time === b.time;
}

/** Runs `fn` over `items`, at most `limit` at once; rejects with the first failure once all have settled. */
async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure !== null) throw failure;
}
