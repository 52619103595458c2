// Shortest paths over ids only; the caller supplies adjacency and weights (and validates weights).
//
// 1. A search from `source` (BFS for fewest hops, Dijkstra for least summed weight) records, for
//    every reached node, its "tight" predecessors: edges u→v with dist(u) + w = dist(v).
// 2. The nodes that can reach `target` through tight edges form the shortest-path subgraph.
// 3. A depth-first walk from `source` over that subgraph yields paths until `maxPaths` is reached,
//    so graphs with exponentially many shortest paths cost only what is returned.
//
// Order: paths are lexicographic by the position of each edge in its node's `neighbors`
// enumeration, i.e. the first path takes the earliest-yielded usable edge at every step.

export interface PathNeighbor {
  edgeId: string;
  nodeId: string;
}

export interface ShortestPathsInput {
  source: string;
  target: string;
  neighbors: (nodeId: string) => Iterable<PathNeighbor>;
  /** null → BFS (every edge counts 1); otherwise a non-negative weight per edge. */
  weight: ((edgeId: string) => number) | null;
  maxPaths: number;
}

export interface IdPath {
  nodes: string[];
  edges: string[];
}

/** Tight incoming edges of one node, as parallel arrays to avoid an object per edge. */
interface Preds {
  nodes: string[];
  edges: string[];
  /** The edge's position in its tail node's `neighbors` enumeration (for the path order). */
  seqs: number[];
}

/** Distances equal within floating-point noise of summed weights. */
function sameDistance(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
}

/**
 * When only pathological zero-weight cycles make the walk hit dead ends, give up after this many
 * steps rather than explore exponentially many simple paths; results found so far are returned.
 */
const WALK_STEP_BUDGET = 5_000_000;

export function shortestPaths(input: ShortestPathsInput): IdPath[] {
  const { source, target, maxPaths } = input;
  if (!(maxPaths >= 1)) return [];
  if (source === target) return [{ nodes: [source], edges: [] }];
  const preds = input.weight === null ? bfs(input) : dijkstra(input, input.weight);
  if (!preds.has(target)) return [];
  return walk(source, target, successors(target, preds), maxPaths);
}

function addPred(preds: Map<string, Preds>, v: string, u: string, edge: string, seq: number, reset: boolean): void {
  const p = preds.get(v);
  if (p === undefined || reset) {
    preds.set(v, { nodes: [u], edges: [edge], seqs: [seq] });
  } else {
    p.nodes.push(u);
    p.edges.push(edge);
    p.seqs.push(seq);
  }
}

/** Fewest hops. Stops once every node one hop short of the target has been expanded. */
function bfs(input: ShortestPathsInput): Map<string, Preds> {
  const { source, target, neighbors } = input;
  const dist = new Map<string, number>([[source, 0]]);
  const preds = new Map<string, Preds>();
  const queue: string[] = [source];
  let targetDist = Infinity;
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head]!;
    const du = dist.get(u)!;
    if (du >= targetDist) break;
    let seq = 0;
    for (const { edgeId, nodeId: v } of neighbors(u)) {
      const dv = dist.get(v);
      if (dv === undefined) {
        dist.set(v, du + 1);
        if (v === target) targetDist = du + 1;
        else queue.push(v); // the target is never expanded
        addPred(preds, v, u, edgeId, seq, true);
      } else if (dv === du + 1) {
        addPred(preds, v, u, edgeId, seq, false);
      }
      seq++;
    }
  }
  return preds;
}

/** Binary min-heap of (distance, node) in parallel arrays; stale entries are skipped on pop. */
class Heap {
  private readonly keys: number[] = [];
  private readonly ids: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, id: string): void {
    const keys = this.keys;
    const ids = this.ids;
    let i = keys.length;
    keys.push(key);
    ids.push(id);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      ids[i] = ids[parent]!;
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Removes the minimum; read it first with `peekKey` / `peekId`. */
  pop(): void {
    const keys = this.keys;
    const ids = this.ids;
    const lastKey = keys.pop()!;
    const lastId = ids.pop()!;
    const n = keys.length;
    if (n === 0) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= lastKey) break;
      keys[i] = keys[child]!;
      ids[i] = ids[child]!;
      i = child;
    }
    keys[i] = lastKey;
    ids[i] = lastId;
  }

  peekKey(): number {
    return this.keys[0]!;
  }

  peekId(): string {
    return this.ids[0]!;
  }
}

/**
 * Least summed weight. Keeps settling nodes while their distance does not exceed the target's,
 * because zero-weight edges from such nodes can still be tight edges into the target.
 */
function dijkstra(input: ShortestPathsInput, weight: (edgeId: string) => number): Map<string, Preds> {
  const { source, target, neighbors } = input;
  const dist = new Map<string, number>([[source, 0]]);
  const settled = new Set<string>();
  const preds = new Map<string, Preds>();
  const heap = new Heap();
  heap.push(0, source);
  while (heap.size > 0) {
    const du = heap.peekKey();
    const u = heap.peekId();
    heap.pop();
    if (settled.has(u)) continue;
    const targetDist = dist.get(target);
    if (targetDist !== undefined && du > targetDist && !sameDistance(du, targetDist)) break;
    settled.add(u);
    let seq = 0;
    for (const { edgeId, nodeId: v } of neighbors(u)) {
      const nd = du + weight(edgeId);
      const dv = dist.get(v);
      if (dv === undefined || (nd < dv && !sameDistance(nd, dv))) {
        dist.set(v, nd);
        addPred(preds, v, u, edgeId, seq, true);
        heap.push(nd, v);
      } else if (sameDistance(nd, dv)) {
        // Also for already-settled v (a zero-weight edge); the walk keeps paths simple.
        addPred(preds, v, u, edgeId, seq, false);
      }
      seq++;
    }
  }
  return preds;
}

/** Tight edges among nodes that reach `target`, as successor lists in enumeration order. */
function successors(target: string, preds: Map<string, Preds>): Map<string, Preds> {
  const useful = new Set<string>([target]);
  const stack = [target];
  while (stack.length > 0) {
    const p = preds.get(stack.pop()!);
    if (p === undefined) continue;
    for (const u of p.nodes) {
      if (!useful.has(u)) {
        useful.add(u);
        stack.push(u);
      }
    }
  }
  const succ = new Map<string, Preds>();
  for (const v of useful) {
    const p = preds.get(v);
    if (p === undefined) continue; // the source
    for (let i = 0; i < p.nodes.length; i++) addPred(succ, p.nodes[i]!, v, p.edges[i]!, p.seqs[i]!, false);
  }
  for (const s of succ.values()) sortBySeq(s);
  return succ;
}

function sortBySeq(s: Preds): void {
  const order = s.seqs.map((_, i) => i).sort((a, b) => s.seqs[a]! - s.seqs[b]!);
  const nodes = order.map((i) => s.nodes[i]!);
  const edges = order.map((i) => s.edges[i]!);
  const seqs = order.map((i) => s.seqs[i]!);
  s.nodes = nodes;
  s.edges = edges;
  s.seqs = seqs;
}

/** Iterative DFS (paths can be far longer than the call stack allows), simple paths only. */
function walk(source: string, target: string, succ: Map<string, Preds>, maxPaths: number): IdPath[] {
  const results: IdPath[] = [];
  const nodes: string[] = [source];
  const edges: string[] = [];
  const next: number[] = [0]; // next successor index to try at each depth
  const onPath = new Set<string>([source]);
  let steps = 0;
  while (nodes.length > 0 && results.length < maxPaths && steps++ < WALK_STEP_BUDGET) {
    const depth = nodes.length - 1;
    const u = nodes[depth]!;
    const s = succ.get(u);
    const i = next[depth]!;
    if (u === target || s === undefined || i >= s.nodes.length) {
      if (u === target) results.push({ nodes: nodes.slice(), edges: edges.slice() });
      onPath.delete(u);
      nodes.pop();
      next.pop();
      edges.pop();
      continue;
    }
    next[depth] = i + 1;
    const v = s.nodes[i]!;
    if (onPath.has(v)) continue; // only possible through a zero-weight cycle
    onPath.add(v);
    nodes.push(v);
    edges.push(s.edges[i]!);
    next.push(0);
  }
  return results;
}
