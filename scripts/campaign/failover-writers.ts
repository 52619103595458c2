// The failover campaign's writers: lanes that each send `AddItem` with a key never sent before to
// the node they believe leads, and record every attempt: whom it went to, when it was sent, when
// and how it was answered, and the epoch a 200 named (`Strand-Epoch`). A key is never retried, so
// an answer that never arrived leaves a key that may or may not be in the data — the checks
// accept either, but never a 200 whose key is missing.
import type { FailoverGroup } from "./failover-group.js";
import { sleep } from "./strand-child.js";

export interface Attempt {
  key: string;
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
  lanes: number;
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
    this.lanes = Array.from({ length: this.options.lanes }, (_, lane) => this.lane(lane));
  }

  /** Stops sending and waits for the answers in flight (a paused node's come once it resumes). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.lanes);
  }

  acknowledged(): Attempt[] {
    return this.attempts.filter((a) => a.status === 200);
  }

  private async lane(lane: number): Promise<void> {
    let hint: string | null = null;
    for (let i = 0; !this.stopping; i++) {
      const url = hint ?? this.group.leader()?.server?.url ?? null;
      hint = null;
      if (url === null) {
        await sleep(20);
        continue;
      }
      const key = `${this.options.prefix}-${lane}-${i}`;
      const attempt = await this.send(url, key, lane, i);
      this.attempts.push(attempt);
      if (attempt.status === 200) continue;
      if (attempt.status === 421 && attempt.code === "NOT_LEADER") hint = attempt.leader ?? null;
      // Not acknowledged: give the group a moment before the next key.
      await sleep(20);
    }
  }

  private async send(url: string, key: string, lane: number, i: number): Promise<Attempt> {
    const sentAt = this.options.now();
    const node = this.group.nodeOf(url);
    try {
      const res = await fetch(`${url}/AddItem`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key, grp: lane, text: `failover write ${i} of lane ${lane}`, n: i }),
      });
      const text = await res.text();
      const receivedAt = this.options.now();
      const epoch = Number(res.headers.get("strand-epoch") ?? "0");
      if (res.status === 200) return { key, node, sentAt, receivedAt, status: 200, epoch };
      const body = parse(text);
      const code = typeof body.code === "string" ? body.code : "?";
      const leader = typeof body.leader === "string" ? { leader: body.leader } : {};
      return { key, node, sentAt, receivedAt, status: res.status, code, epoch, ...leader };
    } catch {
      return { key, node, sentAt, receivedAt: this.options.now(), status: 0, epoch: 0 };
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
