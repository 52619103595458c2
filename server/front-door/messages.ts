// What a door (door.ts) and the engine (engine.ts) say to each other: over the front-door
// thread's MessagePort in batches (outbox.ts: each postMessage carries an array of these), or, for
// the engine's own door, as plain calls on one thread (start.ts). A door owns its sockets; the
// engine owns the store and the Hono app. Everything here is structured-cloneable; bodies travel
// as Uint8Arrays whose buffers are transferred (never copied twice), and a response body streams
// in chunks so long-polls and backups keep working.
import type { ErrorCode } from "../../core/errors.js";
import type { LogLevel } from "../observe/log-level.js";
import type { RequestRecord } from "../observe/request-observer.js";

/** The settings the front door starts with (its workerData). */
export interface FrontDoorSettings extends DoorSettings {
  port: number;
  host: string;
  /** The front door's own log lines (refusals, failed accepts, its internal errors): the server's level and form. */
  logLevel: LogLevel;
  /** Readable lines instead of JSON (logger.ts). */
  logPretty: boolean;
}

/** What the front-door thread is told beside its settings: to listen itself, or to stand by (standby.ts). */
export interface FrontDoorWorkerData extends FrontDoorSettings {
  standby: StandbySettings | null;
}

/** The engine's listening socket and heartbeat, for the standby door (standby.ts). */
export interface StandbySettings {
  /** The engine's listening descriptor, which the standby duplicates while it accepts. */
  listenFd: number;
  /** The engine's heartbeat (heartbeat.ts). */
  beats: SharedArrayBuffer;
}

/** The limits of one door (door.ts). */
export interface DoorSettings {
  /** The budgets' counts, shared by the engine's door and the standby's (byte-budget.ts); each door its own when absent. */
  budgetCells?: { bodies: SharedArrayBuffer; answers: SharedArrayBuffer } | undefined;
  bodyLimitBytes: number;
  /** The most bytes of request bodies held at once for requests not yet answered (byte-budget.ts). */
  bodyMemoryLimitBytes: number;
  /** The most bytes of answers handed to sockets and not yet taken by the system (byte-budget.ts). */
  answerMemoryLimitBytes: number;
  /** /health answers 503 ENGINE_STALLED when the engine has not answered a heartbeat for longer. */
  stallLimitMs: number;
  /** Connections one client (peer address) may hold open at once (connection-guard.ts). */
  maxConnectionsPerClient: number;
  /** Answer GET /health only for loopback Host names (the DNS-rebinding guard, origin-guard.ts); others go to the engine. */
  loopbackHostsOnly: boolean;
  /** After close() began, connections still open after this long are closed. */
  forceCloseAfterMs: number;
  /** A failover group's node: the lease gate's cell (lease-gate.ts); null outside a group. */
  leaseGate: SharedArrayBuffer | null;
}

/** A request refused before the engine reads its body: what readBody rejects with. */
export interface BodyRefusal {
  code: ErrorCode;
  message: string;
}

/** Front door → engine. */
export type ToEngine =
  | {
      t: "request";
      id: number;
      method: string;
      /** Absolute: `http://<host><target>`, checked by the front door. */
      url: string;
      /** Name/value pairs in arrival order (Node's rawHeaders). */
      rawHeaders: string[];
      /** The TCP peer, from the socket (never from a header). */
      remoteAddress: string | undefined;
      /** The request's id (observe/request-id.ts), for the engine's lines about it. */
      reqId?: string | undefined;
      body: Uint8Array | null;
      refusal: BodyRefusal | null;
    }
  /** The client went away before its response ended: stop producing it. */
  | { t: "abort"; id: number }
  /** A streamed chunk was written to the socket: the engine may send more. */
  | { t: "written"; id: number; bytes: number }
  | { t: "ping"; seq: number }
  | { t: "record"; record: RequestRecord }
  | { t: "listening"; port: number }
  | { t: "listen-failed"; message: string; code: string | undefined }
  /** The standby took connections: the engine had not beaten for HELD_AFTER_MS (standby.ts). */
  | { t: "held" }
  /** The standby has stopped taking connections for good (asked to close): the engine may close its socket. */
  | { t: "stood-down" }
  | { t: "closed" };

/** Engine → front door. */
export type ToFrontDoor =
  | {
      t: "head";
      id: number;
      status: number;
      headers: Record<string, string>;
      /** The whole body or its first chunks. */
      body: Uint8Array[];
      /** Whether the body is complete. */
      end: boolean;
    }
  | { t: "chunk"; id: number; data: Uint8Array; end: boolean }
  /** The body failed part way: the connection is cut (the client sees an incomplete response). */
  | { t: "fail"; id: number }
  /** `commit`: the engine's Strand-Commit, when it has a commit log. */
  | { t: "pong"; seq: number; commit: number | null }
  | { t: "close" };
