// Read-your-writes across nodes. Every response carries `Strand-Commit: <seq>`, the newest
// sequence this node has committed (a leader: after a write, at least that write's) or applied (a
// replica). A request with `Strand-After: <seq>` is held until this node has it, at most the
// configured time, then answered 503 REPLICA_BEHIND with Retry-After. A client that sends back
// the highest Strand-Commit it saw (the generated client does) reads its own writes on any node.
import type { MiddlewareHandler } from "hono";
import { StrandError } from "../../core/errors.js";
import { AFTER_HEADER, COMMIT_HEADER, EPOCH_HEADER } from "../../runtime/replication/protocol.js";
import { jsonErrorResponse } from "../http/error-response.js";
import { incomingOf, requestHeader } from "../http/request-header.js";
import type { ReplicationNode } from "./node.js";

export function commitHeaders(node: ReplicationNode): MiddlewareHandler {
  return async (c, next) => {
    const after = requestHeader(c, incomingOf(c), AFTER_HEADER);
    if (after !== undefined) {
      const seq = parseSeq(after);
      if (seq === null)
        return withCommit(
          jsonErrorResponse(
            new StrandError("BAD_REQUEST", `${AFTER_HEADER} must be a sequence number (an integer >= 0), got "${after.slice(0, 40)}"`),
          ),
          node,
        );
      if (!(await reached(node, seq))) {
        const error = new StrandError(
          "REPLICA_BEHIND",
          `this node has applied sequence ${node.log().committed}, not yet ${seq} (${AFTER_HEADER}), after waiting ${node.afterTimeoutMs} ms; retry, or read from the leader`,
        );
        return withCommit(jsonErrorResponse(error, { "retry-after": "1" }), node);
      }
    }
    await next();
    c.res.headers.set(COMMIT_HEADER, String(node.log().committed));
    const epoch = node.cluster?.leaderEpoch() ?? 0;
    if (epoch > 0) c.res.headers.set(EPOCH_HEADER, String(epoch));
    return undefined;
  };
}

/**
 * Waits up to the node's timeout for `seq`, in slices: a replica's re-seed replaces the store and
 * its log (the old one stops answering), and the next slice waits on the new one.
 */
export async function reached(node: ReplicationNode, seq: number): Promise<boolean> {
  const deadline = Date.now() + node.afterTimeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    if (await node.log().waitFor(seq, Math.min(left, WAIT_SLICE_MS))) return true;
    if (left <= WAIT_SLICE_MS) return false;
  }
}

const WAIT_SLICE_MS = 250;

function withCommit(response: Response, node: ReplicationNode): Response {
  response.headers.set(COMMIT_HEADER, String(node.log().committed));
  return response;
}

/** A Strand-After value as a sequence number; null when it is not one (the app answers 400). */
export function parseSeq(text: string): number | null {
  if (!/^\d{1,15}$/.test(text.trim())) return null;
  return Number(text.trim());
}
