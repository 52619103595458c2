// MCP pinning: an /mcp connection lives on one node and remembers the highest
// commit sequence it has observed — the node's sequence when it was made (init), after each of
// its calls (a write's included). A call on a node that is behind that (a replica that re-seeded
// onto a shorter history after a failover, say) waits for it, as long as a request with
// `Strand-After` would, else answers 503 REPLICA_BEHIND: a connection never sees time run back.
import { StrandError } from "../../core/errors.js";
import type { JsonValue } from "../../core/schema.js";
import type { ConnectionRegistry } from "./connections.js";
import { reached } from "../replication/commit-headers.js";
import type { ReplicationNode } from "../replication/node.js";

export interface CommitView {
  committed(): number;
  /** Waits (at most `timeoutMs`) until `seq` is applied here; false when it was not in time. */
  reach(seq: number): Promise<boolean>;
  readonly timeoutMs: number;
}

export function commitView(node: ReplicationNode): CommitView {
  return { committed: () => node.log().committed, reach: (seq) => reached(node, seq), timeoutMs: node.afterTimeoutMs };
}

/** Runs one tool call of an /mcp connection pinned to the sequences it has seen. */
export async function pinnedCall(
  commits: CommitView,
  connections: ConnectionRegistry,
  tool: string,
  body: unknown,
  run: () => Promise<JsonValue>,
): Promise<JsonValue> {
  const id =
    typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>).connection_id : undefined;
  const connection = typeof id === "string" ? connections.find(id) : undefined;
  if (connection !== undefined && connection.pin > commits.committed() && !(await commits.reach(connection.pin))) {
    throw new StrandError(
      "REPLICA_BEHIND",
      `this node has applied sequence ${commits.committed()}, not yet ${connection.pin}, which this MCP connection has already seen, after waiting ${commits.timeoutMs} ms; retry, or connect to the leader`,
    );
  }
  const result = await run();
  const seen = tool === "init" && typeof result === "string" ? connections.find(result) : connection;
  if (seen !== undefined) seen.pin = Math.max(seen.pin, commits.committed());
  return result;
}
