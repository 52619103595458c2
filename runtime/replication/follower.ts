// A read replica's side of replication: ask the leader for the log entries after the sequence the
// store has applied (a long poll), apply each answer in one transaction, and again. The leader's
// identity (schema and store settings) is checked before the first entry and on every answer; a
// difference stops following for good (`fatal`: the operator must deploy the leader's version).
// An answer 410 LOG_GONE (the entries needed are past the leader's retention, or the logs
// diverged) asks for a re-seed from a fresh backup (`reseed`). Network failures are retried with
// a growing pause; the replica keeps serving reads meanwhile, staler.
import { randomUUID } from "node:crypto";
import { isStrandError } from "../../core/errors.js";
import type { CommitLog } from "../commit-log/commit-log.js";
import { LogPositionError } from "../commit-log/log-writes.js";
import { identityMismatch } from "./identity.js";
import { leaderFetch, type LeaderAccess } from "./leader-fetch.js";
import { retryPause } from "./retry-pause.js";
import {
  COMMIT_HEADER,
  decodeFrames,
  EPOCH_HEADER,
  LOG_FIRST_HEADER,
  LOG_PATH,
  SCHEMA_HEADER,
  STATUS_PATH,
  type ReplicationStatus,
  type StoreIdentity,
} from "./protocol.js";

/** What the follower needs of the store it fills (GraphStore satisfies it). */
export interface FollowerTarget {
  readonly log: Pick<CommitLog, "committed" | "committedAt" | "timeOf">;
  applyLogEntries(first: number, frames: readonly Uint8Array[]): Promise<number>;
}

export interface FollowerOptions {
  leader: LeaderAccess;
  identity: StoreIdentity;
  /** The store now (a re-seed replaces it). */
  target: () => FollowerTarget;
  /** Replace the store by a fresh backup of the leader; resolves when the new one is in place. */
  reseed: () => Promise<void>;
  /** Following cannot go on (another schema, a broken entry): say why; the follower has stopped. */
  fatal: (message: string) => void;
  warn: (message: string) => void;
  /** How long one long poll waits at the leader for a new entry (ms; default 5000). */
  waitMs?: number;
  /** A failover group's replica: its member id, sent with each poll (its acknowledgement). */
  member?: string | undefined;
  /** The epoch the group says the leader leads in: answers of a lower epoch (a deposed leader) are refused. */
  epoch?: number | undefined;
}

export type FollowerState = "connecting" | "following" | "reseeding" | "retrying" | "stopped";

const MAX_PAUSE_MS = 5_000;

export class Follower {
  private stopped = false;
  private running: Promise<void> | null = null;
  private readonly abort = new AbortController();
  state: FollowerState = "connecting";
  /** The leader's sequence in its last answer. */
  leaderSeq = 0;

  /** Names this follower to its leader, which keeps the entries it will ask for while it asks. */
  private readonly id = randomUUID();

  constructor(private readonly options: FollowerOptions) {}

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.state = "stopped";
    this.abort.abort();
    await this.running;
  }

  /** How far behind the leader the store is: sequences, and ms since the oldest entry not applied committed (0 when caught up). */
  lag(): { seqs: number; ms: number } {
    const log = this.options.target().log;
    const seqs = Math.max(0, this.leaderSeq - log.committed);
    if (seqs === 0) return { seqs, ms: 0 };
    const at = log.committedAt;
    return { seqs, ms: at === null ? 0 : Math.max(0, Date.now() - at) };
  }

  status(): NonNullable<ReplicationStatus["following"]> {
    return { leader: this.options.leader.url, leaderSeq: this.leaderSeq, lagMs: this.lag().ms, state: this.state };
  }

  private async run(): Promise<void> {
    let pause = 100;
    let checked = false;
    while (!this.stopped) {
      try {
        if (!checked) {
          const res = await leaderFetch(this.options.leader, STATUS_PATH, 10_000, this.abort.signal);
          if (!res.ok) throw new Error(`${STATUS_PATH}: ${res.status} ${await res.text()}`);
          const status = (await res.json()) as ReplicationStatus;
          // A replica of its own URL (--follow naming this server) answered "following" with
          // no lag for ever, and sent writers in a circle with its 421s.
          const url = this.options.leader.url;
          if (status.following?.leader === url) {
            this.stop_(`${url} is a replica following ${url}, that is, itself (is --follow this server's own URL?): give the leader's URL`);
            return;
          }
          if (this.refuses(status.identity)) return;
          this.leaderSeq = status.seq;
          checked = true;
        }
        if (!(await this.pull())) return;
        this.state = "following";
        pause = 100;
      } catch (error) {
        if (this.stopped) return;
        this.state = "retrying";
        this.options.warn(`following ${this.options.leader.url}: ${(error as Error).message}; trying again in ${pause} ms`);
        await retryPause(pause, this.abort.signal);
        pause = Math.min(pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  /** One long poll and its entries applied; false when following must stop. */
  private async pull(): Promise<boolean> {
    const target = this.options.target();
    const after = target.log.committed;
    const time = after > 0 ? target.log.timeOf(after) : null;
    const wait = this.options.waitMs ?? 5_000;
    const member = this.options.member === undefined ? "" : `&member=${encodeURIComponent(this.options.member)}`;
    const query = `?after=${after}&wait=${wait}${time === null ? "" : `&time=${time}`}${member}&follower=${this.id}`;
    const res = await leaderFetch(this.options.leader, LOG_PATH + query, wait + 15_000, this.abort.signal);
    if (res.status === 410) {
      await res.body?.cancel();
      this.state = "reseeding";
      this.options.warn(
        `the leader no longer keeps its log after ${after} (past its retention, or another history): re-seeding from its backup`,
      );
      await this.options.reseed();
      return !this.stopped;
    }
    if (!res.ok) throw new Error(`${LOG_PATH}: ${res.status} ${await res.text()}`);
    const epoch = Number(res.headers.get(EPOCH_HEADER) ?? "0");
    if (this.options.epoch !== undefined && !(epoch >= this.options.epoch)) {
      await res.body?.cancel();
      throw new Error(
        `refusing log entries of epoch ${epoch}: the group's leader leads epoch ${this.options.epoch} (a deposed leader answered)`,
      );
    }
    const schema = res.headers.get(SCHEMA_HEADER);
    if (schema !== null && schema !== this.options.identity.fingerprint) {
      // The leader was redeployed: ask for its whole identity to name it.
      await res.body?.cancel();
      const status = await leaderFetch(this.options.leader, STATUS_PATH, 10_000, this.abort.signal);
      if (status.ok && this.refuses(((await status.json()) as ReplicationStatus).identity)) return false;
      throw new Error(`the leader's schema fingerprint is ${schema}, this replica's ${this.options.identity.fingerprint}`);
    }
    this.leaderSeq = Number(res.headers.get(COMMIT_HEADER) ?? this.leaderSeq);
    const frames = decodeFrames(new Uint8Array(await res.arrayBuffer()));
    if (frames.length === 0) return true;
    const first = Number(res.headers.get(LOG_FIRST_HEADER));
    try {
      await target.applyLogEntries(first, frames);
    } catch (error) {
      if (this.stopped) return false;
      // A full disk or an I/O error fails the commit and nothing of it is saved: try again later.
      if (isStrandError(error) && (error.code === "STORAGE_FULL" || error.code === "STORAGE_ERROR")) throw error;
      // The store moved since the poll asked (a deposed leader's last writes settled after it
      // began to follow): nothing was applied; the next poll asks from where the store is, and
      // the leader answers its entries, or 410 when they are another history (a re-seed).
      if (error instanceof LogPositionError) throw new Error(`${error.message} (it moved while the poll waited); asking again`);
      this.stop_(`applying the leader's log entries ${first}..${first + frames.length - 1} failed: ${(error as Error).message}`);
      return false;
    }
    return true;
  }

  /** True (after stopping) when the leader's identity differs from this replica's. */
  private refuses(leader: StoreIdentity): boolean {
    const mismatch = identityMismatch(this.options.identity, leader);
    if (mismatch === null) return false;
    this.stop_(mismatch);
    return true;
  }

  private stop_(message: string): void {
    this.stopped = true;
    this.state = "stopped";
    this.options.fatal(message);
  }
}
