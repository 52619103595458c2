// How many items one /mcp call may touch (six out_step calls on a follow graph once
// built a 64.8M-item array and then crashed the process). Two limits, both checked while a step
// expands, so the call stops at the first item over the limit instead of after materialising:
//
//   held     the items the connection may hold after the call: mcp_max_items, or less when the
//            connections together are near mcp_max_total_items (what the others hold is taken),
//            or when its client's connections together are near the client's share: the total
//            less one connection's room (mcp_max_items, at most half the total) kept for other
//            clients, so one client cannot lock every other agent out until its connections
//            expire (a client with 20 connections once held all 4M items for 30 minutes)
//   visited  the items one call may reach while expanding, counted before de-duplication
//            (mcp_max_request_items), so a dense graph cannot keep the event loop busy for long
//            even when the de-duplicated set stays small
import { StrandError } from "../../core/errors.js";

export interface ItemLimits {
  /** Items one connection may hold (strand.toml mcp_max_items). */
  readonly maxItems: number;
  /** Items every connection together may hold (mcp_max_total_items). */
  readonly maxTotalItems: number;
  /** Items one call may visit while expanding steps, before de-duplication (mcp_max_request_items). */
  readonly maxRequestItems: number;
}

export const DEFAULT_ITEM_LIMITS: ItemLimits = Object.freeze({
  maxItems: 1_000_000,
  maxTotalItems: 4_000_000,
  maxRequestItems: 5_000_000,
});

/** The items one client's connections may hold together: the total less the room kept for other clients. */
export function clientShare(limits: ItemLimits): number {
  return limits.maxTotalItems - Math.min(limits.maxItems, Math.floor(limits.maxTotalItems / 2));
}

/**
 * The limits of one call; `othersHold` is what every other connection holds at its start,
 * `clientOthersHold` what the other connections of its client hold (null: a caller that names no
 * client, in process or over stdio, the only client there is, has no share to keep to).
 */
export class CallBudget {
  private visited = 0;

  constructor(
    private readonly limits: ItemLimits,
    private readonly othersHold: number,
    private readonly clientOthersHold: number | null = null,
  ) {}

  /** What the total leaves this connection. */
  private get totalRoom(): number {
    return this.limits.maxTotalItems - this.othersHold;
  }

  /** What the client's share leaves this connection (Infinity without a share). */
  private get clientRoom(): number {
    return this.clientOthersHold === null ? Number.POSITIVE_INFINITY : clientShare(this.limits) - this.clientOthersHold;
  }

  /** The most items the connection may hold after this call. */
  get maxHeld(): number {
    return Math.max(0, Math.min(this.limits.maxItems, this.totalRoom, this.clientRoom));
  }

  /** Counts `n` more items reached by `step`; RESULT_TOO_LARGE past mcp_max_request_items. */
  visit(n: number, step: string): void {
    this.visited += n;
    if (this.visited <= this.limits.maxRequestItems) return;
    throw new StrandError(
      "RESULT_TOO_LARGE",
      `${step} reaches more than ${this.limits.maxRequestItems} items in one call (mcp_max_request_items); ` +
        "narrow the traversal first (filter_items, or collect a range and step from fewer items)",
    );
  }

  /** RESULT_TOO_LARGE when holding `count` items after `step` would pass the connection's limit. */
  hold(count: number, step: string): void {
    if (count <= this.maxHeld) return;
    if (this.limits.maxItems <= this.totalRoom && this.limits.maxItems <= this.clientRoom) {
      throw new StrandError(
        "RESULT_TOO_LARGE",
        `${step} would hold more than ${this.limits.maxItems} items (mcp_max_items); narrow the traversal first (filter_items, or a step from fewer items)`,
      );
    }
    if (this.clientRoom < this.totalRoom) {
      const share = clientShare(this.limits);
      throw new StrandError(
        "RESULT_TOO_LARGE",
        `${step} would hold more than ${this.maxHeld} items: one client's connections may hold ${share} together ` +
          `(mcp_max_total_items less ${this.limits.maxTotalItems - share} kept for other clients) and this client's others hold ` +
          `${this.clientOthersHold}; close or reset connections that are done`,
      );
    }
    throw new StrandError(
      "RESULT_TOO_LARGE",
      `${step} would hold more than ${this.maxHeld} items: the agent connections may hold ${this.limits.maxTotalItems} together ` +
        `(mcp_max_total_items) and the others hold ${this.othersHold}; close or reset connections that are done`,
    );
  }
}
