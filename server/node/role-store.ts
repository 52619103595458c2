// The store as this node serves it, by its role: the one role-aware store access of every node —
// a plain leader, a --follow replica, a failover group's member. Reads always go to the store
// open now (a re-seed swaps it; meanwhile they answer 503 REPLICA_BEHIND). Writes depend on the
// role, checked before anything runs:
//   leader   — the write commits; in a group with synchronous replicas it then waits until its
//              in-sync replicas hold it (`acked`): one they do not confirm in time answers 503
//              NOT_REPLICATED, one overtaken by the loss of the lead 503 FENCED (in both it is
//              committed here but not acknowledged);
//   replica  — 421 NOT_LEADER naming the leader;
//   starting / fenced — 503 FENCED: this node does not know of a leader it may write for.
import { NotLeaderError, StrandError } from "../../core/errors.js";
import type { QueryContext, StoredAnswer } from "../../core/query-context.js";
import type { BackupOutcome } from "../../runtime/backup/backup.js";
import type { GraphStore } from "../../runtime/graph-store.js";
import type { StoreStats } from "../../runtime/records/store-stats.js";
import type { AckOutcome, UnconfirmedChange } from "../cluster/in-sync.js";
import type { BackupSource } from "../http/backup-route.js";
import type { QueryStore } from "../../runtime/query/query-store.js";

export type NodeRole =
  | { readonly kind: "starting" }
  /** `acked` absent: a write is acknowledged once committed (no synchronous replicas). */
  | {
      readonly kind: "leader";
      readonly epoch: number;
      readonly acked?: (seq: number) => Promise<AckOutcome>;
      /** With synchronous replicas and tenants: the wait for the tenants' changes up to a feed version (server/tenants/tenant-feed.ts). */
      readonly tenantsAcked?: (version: number) => Promise<AckOutcome>;
    }
  | { readonly kind: "replica"; readonly leader: string; readonly epoch: number }
  | { readonly kind: "fenced"; readonly reason: string };

export class RoleStore implements QueryStore, BackupSource {
  /** null while a re-seed replaces the store. */
  current: GraphStore | null;
  role: NodeRole = { kind: "starting" };
  /** Writes taken as leader and not answered yet (a stopping node lets them finish). */
  private inFlight = 0;
  private drainedWaiters: (() => void)[] = [];

  constructor(
    store: GraphStore,
    /** For messages: how many replicas and how long a write waits (0: asynchronous). */
    private readonly sync: { replicas: number; timeoutMs: number } = { replicas: 0, timeoutMs: 0 },
  ) {
    this.current = store;
  }

  read<T>(fn: (db: QueryContext) => T): T {
    return this.store().read(fn);
  }

  /** Only a leader without synchronous replicas: elsewhere a retry takes the write path (the role check, the acks). */
  replaysWithoutWriting(): boolean {
    return this.role.kind === "leader" && this.role.acked === undefined;
  }

  flushed(): Promise<void> {
    return this.store().flushed();
  }

  storedAnswer(key: string, notBefore: number): StoredAnswer | undefined {
    return this.store().storedAnswer(key, notBefore);
  }

  get queryTimeoutMs(): number {
    return this.current?.queryTimeoutMs ?? 0;
  }

  async write<T>(fn: (db: QueryContext) => T): Promise<T> {
    const role = this.role;
    const refused = writeRefusal(role);
    if (refused !== null) throw refused;
    if (role.kind !== "leader") throw new Error("unreachable: only a leader writes");
    const store = this.store();
    const acked = role.acked;
    if (acked === undefined) return store.write(fn);
    const { result, seq, outcome } = await this.waiting(async () => {
      const result = await store.write(fn);
      // At least this write's sequence (later writes of the same batch may be in it too: waiting
      // for them as well only waits a little longer).
      const seq = store.log.committed;
      return { result, seq, outcome: await acked(seq) };
    });
    if (outcome === "acked") return result;
    throw this.unacknowledged(outcome, { subject: "the write", seq });
  }

  /** Runs `work` counted as a write waiting for its replicas (a stopping node lets them finish, `drained`). */
  private async waiting<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      if (--this.inFlight === 0) for (const done of this.drainedWaiters.splice(0)) done();
    }
  }

  /**
   * Leading with synchronous replicas and tenants: waits until the in-sync replicas hold the
   * tenants' changes up to feed `version`; throws NOT_REPLICATED or FENCED, saying what `change`
   * was, when they do not. Null when writes are acknowledged once committed.
   */
  tenantConfirmation(): ((version: number, change: UnconfirmedChange) => Promise<void>) | null {
    const role = this.role;
    if (role.kind !== "leader" || role.tenantsAcked === undefined) return null;
    const wait = role.tenantsAcked;
    return async (version, change) => {
      const outcome = await this.waiting(() => wait(version));
      if (outcome !== "acked") throw this.unacknowledged(outcome, change);
    };
  }

  private unacknowledged(outcome: "timeout" | "fenced", change: UnconfirmedChange): StrandError {
    const { subject, seq } = change;
    const at = seq === null ? "" : ` at sequence ${seq}`;
    const retry = change.retry ?? `read it back (Strand-After: ${seq}) before writing it again`;
    if (outcome === "timeout")
      return new StrandError(
        "NOT_REPLICATED",
        `${subject} is committed on this leader${at}, but ${this.sync.replicas} in-sync ${this.sync.replicas === 1 ? "replica" : "replicas"} did not confirm it within ${this.sync.timeoutMs} ms: it is not acknowledged, and is lost if this leader is lost before a replica copies it; ${retry}`,
      );
    const here = seq === null ? "" : ` (committed here at sequence ${seq})`;
    return new StrandError(
      "FENCED",
      `this node lost the lead while ${subject}${here} waited for its replicas: it is not acknowledged and may be undone when this node rejoins; ${change.retry ?? "read it back from the new leader before writing it again"}`,
    );
  }

  /** Resolves once no write waiting for its replicas is left (or after `timeoutMs`). */
  drained(timeoutMs: number): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((done) => {
      const timer = setTimeout(done, timeoutMs);
      this.drainedWaiters.push(() => {
        clearTimeout(timer);
        done();
      });
    });
  }

  stats(): StoreStats {
    return this.store().stats();
  }

  backup(out: string): Promise<BackupOutcome> {
    return this.store().backup(out);
  }

  private store(): GraphStore {
    if (this.current === null)
      throw new StrandError(
        "REPLICA_BEHIND",
        "this replica is re-seeding from its leader's backup; retry shortly, or read from the leader",
      );
    return this.current;
  }
}

/** Why a node in `role` takes no write (421 to the leader, or 503 FENCED); null for a leader. */
export function writeRefusal(role: NodeRole): Error | null {
  if (role.kind === "leader") return null;
  if (role.kind === "replica") return new NotLeaderError(role.leader);
  return fenced(role.kind === "fenced" ? role.reason : "it is starting and has no role in its group yet");
}

function fenced(why: string): StrandError {
  return new StrandError("FENCED", `this node takes no writes now: ${why}; send writes to the group's leader (strand status)`);
}
