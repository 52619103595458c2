// GET and HEAD /health, answered by the front door on its own thread, so a request that keeps the
// engine busy (a big traversal, a long FOR-loop ingest, one write transaction) never delays it.
// The answer also says whether the engine is alive: the front door pings it (engine.ts answers
// between requests); when a ping has waited longer than the stall limit, /health is 503
// ENGINE_STALLED naming how long. Requests the engine must judge go to it instead: one with an
// Origin (CORS, origin-guard.ts), a Strand-After bookmark (commit-headers.ts), or, on a keyless
// loopback server, a Host that is not a loopback name (the DNS-rebinding guard).
import type { IncomingMessage, ServerResponse } from "node:http";
import { StrandError } from "../../core/errors.js";
import { AFTER_HEADER, COMMIT_HEADER } from "../../runtime/replication/protocol.js";
import { isLoopbackHost } from "../http/origin-guard.js";
import { httpStatus } from "../http/status.js";
import { noteErrorCode } from "../observe/request-observer.js";

const OK_BODY = Buffer.from(JSON.stringify({ status: "ok" }));

export interface HealthOptions {
  stallLimitMs: number;
  loopbackHostsOnly: boolean;
  /** Sends a ping numbered `seq` to the engine. */
  ping: (seq: number) => void;
  now?: () => number;
}

/** The ping interval for a stall limit: often enough to see a stall soon after the limit. */
export function pingIntervalMs(stallLimitMs: number): number {
  return Math.max(5, Math.min(1_000, Math.floor(stallLimitMs / 4)));
}

export function engineStalled(waitedMs: number, limitMs: number): StrandError {
  return new StrandError(
    "ENGINE_STALLED",
    `the engine has not answered for ${waitedMs} ms (limit ${limitMs} ms, set by stall_limit_ms under [server] in strand.toml or strand serve --stall-limit): one request is holding it`,
  );
}

export class FrontDoorHealth {
  private seq = 0;
  /** When the unanswered ping was sent; null when the engine answered the last one. */
  private waitingSince: number | null = null;
  private commit: number | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: HealthOptions) {
    this.now = options.now ?? (() => performance.now());
    this.timer = setInterval(() => this.sendPing(), pingIntervalMs(options.stallLimitMs));
    this.sendPing();
  }

  /** The engine answered ping `seq`; `commit` is its Strand-Commit (null without a commit log). */
  pong(seq: number, commit: number | null): void {
    if (seq === this.seq) this.waitingSince = null;
    this.commit = commit;
  }

  /** How long the engine has not answered, when that is past the limit; else null. */
  stalledForMs(): number | null {
    if (this.waitingSince === null) return null;
    const waited = Math.round(this.now() - this.waitingSince);
    return waited > this.options.stallLimitMs ? waited : null;
  }

  /** Answers `req` when it is a /health the front door may answer alone; false to forward it. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    if (!(url === "/health" || url.startsWith("/health?"))) return false;
    const headers = req.headers;
    if (headers.origin !== undefined || headers[AFTER_HEADER] !== undefined) return false;
    if (this.options.loopbackHostsOnly && (headers.host === undefined || !isLoopbackHost(headers.host))) return false;
    const stalled = this.stalledForMs();
    const body = stalled === null ? OK_BODY : Buffer.from(JSON.stringify(engineStalled(stalled, this.options.stallLimitMs).toJSON()));
    const answer: Record<string, string | number> = { "content-type": "application/json", "content-length": body.length };
    if (this.commit !== null) answer[COMMIT_HEADER] = String(this.commit);
    if (stalled !== null) noteErrorCode(res, "ENGINE_STALLED");
    // Each probe on a connection of its own: a kept-alive one the engine's door accepted could
    // only be read by the engine, and a probe sent on it while the engine is held would wait for
    // it instead of reaching the standby (standby.ts).
    res.shouldKeepAlive = false;
    res.writeHead(stalled === null ? 200 : httpStatus("ENGINE_STALLED"), answer);
    res.end(method === "HEAD" ? undefined : body);
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private sendPing(): void {
    if (this.waitingSince !== null) return;
    this.seq += 1;
    this.waitingSince = this.now();
    this.options.ping(this.seq);
  }
}
