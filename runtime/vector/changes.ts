// What a write transaction did to the vectors, in order. The store applies a log to the
// in-memory indexes only after the transaction committed; until then (and until it failed) the
// log is "pending" so searches can still see its vectors in snapshots that contain them.
export interface VectorAdd {
  readonly kind: "add";
  readonly label: string;
  readonly slot: number;
  readonly id: string;
  readonly vector: readonly number[];
  /** The type's generation after this change; `epoch` as in VectorTypeMeta. */
  readonly generation: number;
  readonly epoch: string;
}

export interface VectorRemove {
  readonly kind: "remove";
  readonly label: string;
  readonly slot: number;
  readonly generation: number;
  readonly epoch: string;
}

export type VectorChange = VectorAdd | VectorRemove;

export class VectorLog {
  readonly changes: VectorChange[] = [];
}
