// Until when answers given as a failover group's leader may leave this process. The engine decides
// a write's acknowledgement within the lease (cluster/failover.ts checks it), but the answer then
// waits for its turn in a door (on the standby's thread, a hop away) before it reaches the socket: a process paused in between
// (SIGSTOP, a VM stall) would send it on resume, after another node may have taken over — the
// failover campaign saw 4 such answers in 8 paused-leader faults. So the front door checks again,
// right before writing the head of an answer that carries `Strand-Epoch`: past the lease it
// answers 503 FENCED instead. One 64-bit cell in shared memory, written by the engine's controller
// at each confirmation of the lead, read by the front door; open (no limit) outside a group.
import { StrandError } from "../../core/errors.js";

const OPEN = 2n ** 63n - 1n;

/** The header that marks an answer given as leader (replication/commit-headers.ts). */
export const LEADER_ANSWER_HEADER = "strand-epoch";

export class LeaseGate {
  private readonly cell: BigInt64Array;

  /** Wraps the cell another thread made (`LeaseGate.open()`'s buffer). */
  constructor(readonly buffer: SharedArrayBuffer) {
    this.cell = new BigInt64Array(buffer);
  }

  /** A new gate, open until a controller says otherwise. */
  static open(): LeaseGate {
    const gate = new LeaseGate(new SharedArrayBuffer(8));
    Atomics.store(gate.cell, 0, OPEN);
    return gate;
  }

  /** Leader answers may leave until `ms` (epoch milliseconds); 0: none may. */
  leadUntil(ms: number): void {
    Atomics.store(this.cell, 0, BigInt(Math.max(0, Math.floor(ms))));
  }

  /** Whether a leader's answer may leave at `nowMs`. */
  allows(nowMs: number): boolean {
    return BigInt(Math.floor(nowMs)) < Atomics.load(this.cell, 0);
  }
}

/** What a leader's answer becomes when it would leave past the lease. */
export function leaseRanOut(epoch: string): StrandError {
  return new StrandError(
    "FENCED",
    `this node's lead of epoch ${epoch} ran past its lease before the answer left it (the process was paused or starved): it is not acknowledged, and a write committed here may be undone; read it back from the group's leader before writing it again`,
  );
}
