// The live agent connections: id → traversal state. Connections expire after an idle timeout and
// their number is capped, in all and per client (so one client cannot take every slot); past a cap
// a new connection is 429 TOO_MANY_CONNECTIONS naming the limit reached (mcp_max_connections,
// mcp_max_connections_per_client). The client is the peer's address (client-id.ts); over stdio
// there is one local client. The `close` tool ends a connection at once, freeing its slot and items.
// Expiry is lazy (no timers): the Map is kept in least-recently-used order (a touch re-inserts),
// so sweeping stops at the first connection that is still fresh. The registry also keeps the sum
// of the items every connection holds, which bounds the memory the traversals take.
import { randomUUID } from "node:crypto";
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";
import { CountsByClient } from "../http/counts-by-client.js";
import { CallBudget, DEFAULT_ITEM_LIMITS, type ItemLimits } from "./item-budget.js";
import { BLANK, type Traversal } from "./traversal.js";

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const DEFAULT_MAX_CONNECTIONS = 10_000;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 100;
/** The client of calls that name none (in-process calls, stdio). */
export const LOCAL_CLIENT = "local";

export interface ConnectionOptions {
  /** Idle time after which a connection is forgotten; default 30 minutes. */
  idleTimeoutMs?: number | undefined;
  /** More live connections than this are refused with 429; default 10,000. */
  maxConnections?: number | undefined;
  /** More live connections of one client than this are refused with 429; default 100. */
  maxConnectionsPerClient?: number | undefined;
  /** Item limits of the traversals (item-budget.ts); default DEFAULT_ITEM_LIMITS. */
  maxItems?: number | undefined;
  maxTotalItems?: number | undefined;
  maxRequestItems?: number | undefined;
  /** Milliseconds clock; injectable so tests can expire connections without waiting. */
  now?: (() => number) | undefined;
}

export interface Connection {
  readonly id: string;
  /** Who created it (client-id.ts); its connections count against that client's cap. */
  readonly client: string;
  /** Assigning it updates the registry's count of held items. */
  traversal: Traversal;
  lastUsed: number;
  /** The highest commit sequence this connection has observed: its calls wait for it (pinning.ts). */
  pin: number;
}

/** A connection whose traversal assignments are reported to the registry's item count. */
class LiveConnection implements Connection {
  private current: Traversal = BLANK;
  pin = 0;

  constructor(
    readonly id: string,
    readonly client: string,
    public lastUsed: number,
    private readonly heldChanged: (delta: number) => void,
  ) {}

  get traversal(): Traversal {
    return this.current;
  }

  set traversal(next: Traversal) {
    this.heldChanged(next.items.length - this.current.items.length);
    this.current = next;
  }
}

export class ConnectionRegistry {
  private readonly connections = new Map<string, LiveConnection>();
  /** Live connections per client. */
  private readonly perClient = new CountsByClient();
  private readonly idleTimeoutMs: number;
  private readonly maxConnections: number;
  private readonly maxPerClient: number;
  private readonly limits: ItemLimits;
  private readonly now: () => number;
  /** Items every live connection holds together. */
  private held = 0;
  /** Items each client's live connections hold together (clients holding none are absent). */
  private readonly heldByClient = new CountsByClient();

  constructor(options: ConnectionOptions = {}) {
    this.idleTimeoutMs = positiveInteger("idleTimeoutMs", options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
    this.maxConnections = positiveInteger("maxConnections", options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
    this.maxPerClient = positiveInteger("maxConnectionsPerClient", options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT);
    this.limits = {
      maxItems: positiveInteger("maxItems", options.maxItems ?? DEFAULT_ITEM_LIMITS.maxItems),
      maxTotalItems: positiveInteger("maxTotalItems", options.maxTotalItems ?? DEFAULT_ITEM_LIMITS.maxTotalItems),
      maxRequestItems: positiveInteger("maxRequestItems", options.maxRequestItems ?? DEFAULT_ITEM_LIMITS.maxRequestItems),
    };
    this.now = options.now ?? Date.now;
  }

  /** Live (unexpired) connections. */
  get size(): number {
    this.sweep(this.now());
    return this.connections.size;
  }

  /** Items every live connection holds together. */
  get heldItems(): number {
    this.sweep(this.now());
    return this.held;
  }

  /**
   * A new connection of `client` with a blank traversal; TOO_MANY_CONNECTIONS when the client has
   * as many as it may, or the registry is full.
   */
  create(client: string = LOCAL_CLIENT): Connection {
    const now = this.now();
    this.sweep(now);
    const own = this.perClient.of(client);
    if (own >= this.maxPerClient) {
      throw new StrandError(
        "TOO_MANY_CONNECTIONS",
        `this client has too many open connections (limit ${this.maxPerClient} per client); close some with the close tool, or wait ${this.idleTimeoutMs} ms for idle ones to expire`,
      );
    }
    if (this.connections.size >= this.maxConnections) {
      throw new StrandError(
        "TOO_MANY_CONNECTIONS",
        `too many open connections (limit ${this.maxConnections}); idle ones expire after ${this.idleTimeoutMs} ms`,
      );
    }
    const connection = new LiveConnection(randomUUID(), client, now, (delta) => this.heldChanged(client, delta));
    this.connections.set(connection.id, connection);
    this.perClient.add(client, 1);
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

  /** The live connection named by `id`, if any, without marking it used (a peek before a call validates it). */
  find(id: string): Connection | undefined {
    const connection = this.connections.get(id);
    return connection !== undefined && this.now() - connection.lastUsed < this.idleTimeoutMs ? connection : undefined;
  }

  /** Ends a connection, freeing its slot and its items. */
  close(connection: Connection): void {
    const live = this.connections.get(connection.id);
    if (live !== undefined) this.remove(live);
  }

  /** The item limits of one call on `connection`, given what the other connections hold now. */
  budget(connection: Connection): CallBudget {
    const own = connection.traversal.items.length;
    const clientOthers = connection.client === LOCAL_CLIENT ? null : this.heldByClient.of(connection.client) - own;
    return new CallBudget(this.limits, this.held - own, clientOthers);
  }

  private heldChanged(client: string, delta: number): void {
    this.held += delta;
    this.heldByClient.add(client, delta);
  }

  private remove(connection: LiveConnection): void {
    this.connections.delete(connection.id);
    this.heldChanged(connection.client, -connection.traversal.items.length);
    this.perClient.add(connection.client, -1);
  }

  private sweep(now: number): void {
    for (const connection of this.connections.values()) {
      if (now - connection.lastUsed < this.idleTimeoutMs) return;
      this.remove(connection);
    }
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
