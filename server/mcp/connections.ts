// The live agent connections: id → traversal state. Connections expire after an idle timeout and
// their number is capped. Expiry is lazy (no timers): the Map is kept in least-recently-used order
// (a touch re-inserts), so sweeping stops at the first connection that is still fresh.
import { randomUUID } from "node:crypto";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { BLANK, type Traversal } from "./traversal.js";

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const DEFAULT_MAX_CONNECTIONS = 10_000;

export interface ConnectionOptions {
  /** Idle time after which a connection is forgotten; default 30 minutes. */
  idleTimeoutMs?: number | undefined;
  /** More live connections than this are refused with 429; default 10,000. */
  maxConnections?: number | undefined;
  /** Milliseconds clock; injectable so tests can expire connections without waiting. */
  now?: (() => number) | undefined;
}

export interface Connection {
  readonly id: string;
  traversal: Traversal;
  lastUsed: number;
}

export class ConnectionRegistry {
  private readonly connections = new Map<string, Connection>();
  private readonly idleTimeoutMs: number;
  private readonly maxConnections: number;
  private readonly now: () => number;

  constructor(options: ConnectionOptions = {}) {
    this.idleTimeoutMs = positiveInteger("idleTimeoutMs", options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    this.maxConnections = positiveInteger("maxConnections", options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
    this.now = options.now ?? Date.now;
  }

  /** Live (unexpired) connections. */
  get size(): number {
    this.sweep(this.now());
    return this.connections.size;
  }

  /** A new connection with a blank traversal; TOO_MANY_CONNECTIONS when the cap is reached. */
  create(): Connection {
    const now = this.now();
    this.sweep(now);
    if (this.connections.size >= this.maxConnections) {
      throw new StrandError(
        "TOO_MANY_CONNECTIONS",
        `too many open connections (limit ${this.maxConnections}); idle ones expire after ${this.idleTimeoutMs} ms`,
      );
    }
    const connection: Connection = { id: randomUUID(), traversal: BLANK, lastUsed: now };
    this.connections.set(connection.id, connection);
    return connection;
  }

  /** The connection named by `id` (marked used); UNKNOWN_CONNECTION when absent or expired. */
  get(id: string): Connection {
    const now = this.now();
    this.sweep(now);
    const connection = this.connections.get(id);
    if (connection === undefined) {
      throw new StrandError("UNKNOWN_CONNECTION", `unknown connection_id '${echo(id)}' (never created, or expired after being idle)`);
    }
    connection.lastUsed = now;
    this.connections.delete(id);
    this.connections.set(id, connection);
    return connection;
  }

  private sweep(now: number): void {
    for (const [id, connection] of this.connections) {
      if (now - connection.lastUsed < this.idleTimeoutMs) return;
      this.connections.delete(id);
    }
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
