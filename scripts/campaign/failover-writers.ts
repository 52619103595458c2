// The failover campaign's writers: lanes that each send `AddItem` with a key never sent before to
// the node they believe leads, and record every attempt: whom it went to, when it was sent, when
// and how it was answered, and the epoch a 200 named (`Strand-Epoch`). A key is never retried, so
// an answer that never arrived leaves a key that may or may not be in the data — the checks
// accept either, but never a 200 whose key is missing. The project's lanes write to its own graph;
// the tenant lanes to the tenants (`/t/<tenant>/AddItem`), each write to the next tenant in turn,
// so every tenant takes writes from every tenant lane (keys stay unique across them all).
import type { FailoverGroup } from "./failover-group.js";
import { sleep } from "./strand-child.js";

export interface Attempt {
  key: string;
  /** The tenant written to; absent: the project's own graph. */
  tenant?: string;
  /** The node the request went to. */
  node: string;
  /** ms since the campaign's clock started. */
  sentAt: number;
  receivedAt: number;
  /** HTTP status, or 0 when no answer arrived (the connection failed: a killed node). */
  status: number;
  /** The error code of a 4xx/5xx answer. */
  code?: string;
  /** `Strand-Epoch` of the answer (0: none). */
  epoch: number;
  /** The leader a 421 NOT_LEADER named. */
  leader?: string;
}

export interface WriterOptions {
  /** Lanes writing to the project's own graph. */
  lanes: number;
  /** Tenants written to (none: the project's graph only), and the lanes writing to them. */
  tenants?: readonly string[];
  tenantLanes?: number;
  /** A prefix that makes this phase's keys unique. */
  prefix: string;
  now: () => number;
}

export class Writers {
  readonly attempts: Attempt[] = [];
  private stopping = false;
  private lanes: Promise<void>[] = [];

  constructor(
    private readonly group: FailoverGroup,
    private readonly options: WriterOptions,
  ) {}

  start(): void {
    const { lanes, tenants = [], tenantLanes = 0 } = this.options;
    const project = Array.from({ length: lanes }, (_, lane) => this.lane(lane, () => undefined));
    // Lane numbers go on after the project's, so a key names one write of one lane whatever it wrote to.
    const tenant =
      tenants.length === 0
        ? []
        : Array.from({ length: tenantLanes }, (_, n) => this.lane(lanes + n, (i) => tenants[(n + i) % tenants.length]!));
    this.lanes = [...project, ...tenant];
  }

  /** Stops sending and waits for the answers in flight (a paused node's come once it resumes). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.lanes);
  }

  /** Every acknowledged write, the project's and the tenants'. */
  acknowledged(): Attempt[] {
    return this.attempts.filter((a) => a.status === 200);
  }

  /** `lane`'s write `i` goes to the tenant `target(i)` names (undefined: the project's own graph). */
  private async lane(lane: number, target: (i: number) => string | undefined): Promise<void> {
    let hint: string | null = null;
    for (let i = 0; !this.stopping; i++) {
      const url = hint ?? this.group.leader()?.server?.url ?? null;
      hint = null;
      if (url === null) {
        await sleep(20);
        continue;
      }
      const key = `${this.options.prefix}-${lane}-${i}`;
      const attempt = await this.send(url, target(i), key, lane, i);
      this.attempts.push(attempt);
      if (attempt.status === 200) continue;
      if (attempt.status === 421 && attempt.code === "NOT_LEADER") hint = attempt.leader ?? null;
      // Not acknowledged: give the group a moment before the next key.
      await sleep(20);
    }
  }

  private async send(url: string, tenant: string | undefined, key: string, lane: number, i: number): Promise<Attempt> {
    const sentAt = this.options.now();
    const node = this.group.nodeOf(url);
    const to = tenant === undefined ? {} : { tenant };
    try {
      const res = await fetch(`${url}${tenant === undefined ? "" : `/t/${tenant}`}/AddItem`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, grp: lane, text: `failover write ${i} of lane ${lane}`, n: i }),
      });
      const text = await res.text();
      const receivedAt = this.options.now();
      const epoch = Number(res.headers.get("strand-epoch") ?? "0");
      if (res.status === 200) return { key, ...to, node, sentAt, receivedAt, status: 200, epoch };
      const body = parse(text);
      const code = typeof body.code === "string" ? body.code : "?";
      const leader = typeof body.leader === "string" ? { leader: body.leader } : {};
      return { key, ...to, node, sentAt, receivedAt, status: res.status, code, epoch, ...leader };
    } catch {
      return { key, ...to, node, sentAt, receivedAt: this.options.now(), status: 0, epoch: 0 };
    }
  }
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
