// Shortest paths over ids only; the caller supplies adjacency and weights (and validates weights).
//
// 1. A search from `source` (BFS for fewest hops, Dijkstra for least summed weight) records, for
//    every reached node, its "tight" incoming edges: u→v with dist(u) + w = dist(v).
// 2. The nodes that reach `target` through tight edges form the shortest-path subgraph.
// 3. A depth-first walk from `source` over that subgraph emits paths until `maxPaths`, so graphs
//    with exponentially many shortest paths cost only what is returned.
//
// Order: paths are lexicographic by the position of each edge in its node's `neighbors`
// enumeration, i.e. the first path takes the earliest-yielded usable edge at every step.
//
// Nodes get dense integer indexes and tight edges live in flat parallel arrays (linked lists by
// index), so a 100k-node search allocates no object per node or edge.

export interface PathNeighbor {
  edgeId: string;
  nodeId: string;
}

export interface ShortestPathsInput {
  source: string;
  target: string;
  /** Called at most once per node. */
  neighbors: (nodeId: string) => Iterable<PathNeighbor>;
  /** null → BFS (every edge counts 1); otherwise a non-negative weight per edge. */
  weight: ((edgeId: string) => number) | null;
  maxPaths: number;
}

export interface IdPath {
  nodes: string[];
  edges: string[];
}

/** Distances equal within floating-point noise of summed weights. */
function sameDistance(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
}

const NONE = -1;

/** Search state: nodes by index, and tight edges ("entries") as linked lists per head node. */
class SearchState {
  readonly ids: string[] = [];
  readonly index = new Map<string, number>();
  readonly dist: number[] = [];
  readonly predHead: number[] = [];
  readonly entFrom: number[] = [];
  readonly entTo: number[] = [];
  readonly entEdge: string[] = [];
  readonly entSeq: number[] = [];
  readonly entNext: number[] = [];

  node(id: string, dist: number): number {
    const i = this.ids.length;
    this.ids.push(id);
    this.index.set(id, i);
    this.dist.push(dist);
    this.predHead.push(NONE);
    return i;
  }

  /** Records the tight edge u→v; `reset` first forgets v's earlier (now longer) predecessors. */
  addPred(v: number, u: number, edge: string, seq: number, reset: boolean): void {
    const e = this.entFrom.length;
    this.entFrom.push(u);
    this.entTo.push(v);
    this.entEdge.push(edge);
    this.entSeq.push(seq);
    this.entNext.push(reset ? NONE : this.predHead[v]!);
    this.predHead[v] = e;
  }
}

export function shortestPaths(input: ShortestPathsInput): IdPath[] {
  const { source, target, maxPaths } = input;
  if (!(maxPaths >= 1)) return [];
  if (source === target) return [{ nodes: [source], edges: [] }];
  const state = new SearchState();
  state.node(source, 0);
  if (input.weight === null) bfs(input, state);
  else dijkstra(input, input.weight, state);
  const t = state.index.get(target);
  if (t === undefined) return [];
  return walk(state, t, successors(state, t), maxPaths);
}

/** Fewest hops. Stops once every node one hop short of the target has been expanded. */
function bfs(input: ShortestPathsInput, s: SearchState): void {
  const { target, neighbors } = input;
  let targetDist = Infinity;
  // Nodes are indexed in discovery order, which is BFS queue order: the index doubles as the queue.
  for (let u = 0; u < s.ids.length; u++) {
    const du = s.dist[u]!;
    if (du >= targetDist) break;
    const uid = s.ids[u]!;
    if (uid === target) continue; // the target is never expanded
    let seq = 0;
    for (const { edgeId, nodeId } of neighbors(uid)) {
      const v = s.index.get(nodeId);
      if (v === undefined) {
        const w = s.node(nodeId, du + 1);
        if (nodeId === target) targetDist = du + 1;
        s.addPred(w, u, edgeId, seq, true);
      } else if (s.dist[v] === du + 1) {
        s.addPred(v, u, edgeId, seq, false);
      }
      seq++;
    }
  }
}

/** Binary min-heap of (distance, node index) in parallel arrays; stale entries are skipped on pop. */
class Heap {
  private readonly keys: number[] = [];
  private readonly vals: number[] = [];

  get size(): number {
    return this.keys.length;
  }

  push(key: number, val: number): void {
    const { keys, vals } = this;
    let i = keys.length;
    keys.push(key);
    vals.push(val);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      vals[i] = vals[parent]!;
      i = parent;
    }
    keys[i] = key;
    vals[i] = val;
  }

  /** Removes and returns the value with the least key (read the key first with `minKey`). */
  pop(): number {
    const { keys, vals } = this;
    const top = vals[0]!;
    const lastKey = keys.pop()!;
    const lastVal = vals.pop()!;
    const n = keys.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= lastKey) break;
      keys[i] = keys[child]!;
      vals[i] = vals[child]!;
      i = child;
    }
    keys[i] = lastKey;
    vals[i] = lastVal;
    return top;
  }

  minKey(): number {
    return this.keys[0]!;
  }
}

/**
 * Least summed weight. Keeps settling nodes while their distance does not exceed the target's,
 * because zero-weight edges out of such nodes can still be tight edges into the target.
 */
function dijkstra(input: ShortestPathsInput, weight: (edgeId: string) => number, s: SearchState): void {
  const { target, neighbors } = input;
  const settled: boolean[] = [];
  const heap = new Heap();
  heap.push(0, 0);
  let t = NONE;
  while (heap.size > 0) {
    const du = heap.minKey();
    const u = heap.pop();
    if (settled[u] === true || du !== s.dist[u]) continue;
    if (t !== NONE && du > s.dist[t]! && !sameDistance(du, s.dist[t]!)) break;
    settled[u] = true;
    const uid = s.ids[u]!;
    if (uid === target) continue; // paths through the target are never shortest paths to it
    let seq = 0;
    for (const { edgeId, nodeId } of neighbors(uid)) {
      const nd = du + weight(edgeId);
      const v = s.index.get(nodeId);
      if (v === undefined) {
        const w = s.node(nodeId, nd);
        if (nodeId === target) t = w;
        s.addPred(w, u, edgeId, seq, true);
        heap.push(nd, w);
      } else {
        const dv = s.dist[v]!;
        if (sameDistance(nd, dv)) {
          // Also for an already-settled v (a zero-weight edge); the walk keeps paths simple.
          s.addPred(v, u, edgeId, seq, false);
        } else if (nd < dv) {
          s.dist[v] = nd;
          s.addPred(v, u, edgeId, seq, true);
          heap.push(nd, v);
        }
      }
      seq++;
    }
  }
}

interface Successors {
  /** First successor entry per node, NONE when it has none. */
  head: Int32Array;
  /** Next successor entry after an entry, in `neighbors` enumeration order. */
  next: Int32Array;
  /** Whether some tight edge joins two nodes at the same distance (zero weight): cycles possible. */
  cyclic: boolean;
}

/** The tight edges among nodes that reach `t`, as successor lists linked by entry index. */
function successors(s: SearchState, t: number): Successors {
  const n = s.ids.length;
  const useful = new Uint8Array(n);
  useful[t] = 1;
  const stack = [t];
  const head = new Int32Array(n).fill(NONE);
  const next = new Int32Array(s.entFrom.length).fill(NONE);
  const outDegree = new Int32Array(n);
  let cyclic = false;
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (let e = s.predHead[v]!; e !== NONE; e = s.entNext[e]!) {
      const u = s.entFrom[e]!;
      if (sameDistance(s.dist[u]!, s.dist[v]!)) cyclic = true;
      next[e] = head[u]!;
      head[u] = e;
      outDegree[u]!++;
      if (useful[u] === 0) {
        useful[u] = 1;
        stack.push(u);
      }
    }
  }
  // Lists were built by prepending in discovery order; put branching ones in enumeration order.
  for (let u = 0; u < n; u++) {
    if (outDegree[u]! < 2) continue;
    const list: number[] = [];
    for (let e = head[u]!; e !== NONE; e = next[e]!) list.push(e);
    list.sort((a, b) => s.entSeq[a]! - s.entSeq[b]!);
    for (let i = 0; i < list.length; i++) next[list[i]!] = i + 1 < list.length ? list[i + 1]! : NONE;
    head[u] = list[0]!;
  }
  return { head, next, cyclic };
}

/**
 * Iterative DFS from the source (index 0; paths can be longer than the call stack allows),
 * simple paths only. Without zero-weight cycles every successor leads to the target, so each step
 * makes progress towards a result. With them, a successor may reach the target only through nodes
 * already on the path; such dead ends are pruned with a reachability check, which keeps the work
 * per returned path polynomial instead of exploring exponentially many simple paths.
 */
function walk(s: SearchState, t: number, succ: Successors, maxPaths: number): IdPath[] {
  const results: IdPath[] = [];
  const nodes: number[] = [0];
  const entries: number[] = []; // entries[d] = the edge taken from nodes[d]
  const cursor: number[] = [succ.head[0]!]; // next successor entry to try at each depth
  const onPath = new Uint8Array(s.ids.length);
  onPath[0] = 1;
  const reaches = succ.cyclic ? reachabilityCheck(s, t, succ, onPath) : null;
  while (nodes.length > 0 && results.length < maxPaths) {
    const depth = nodes.length - 1;
    const u = nodes[depth]!;
    const e = cursor[depth]!;
    if (u === t || e === NONE) {
      if (u === t) {
        results.push({ nodes: nodes.map((i) => s.ids[i]!), edges: entries.map((i) => s.entEdge[i]!) });
      }
      onPath[u] = 0;
      nodes.pop();
      cursor.pop();
      entries.pop();
      continue;
    }
    cursor[depth] = succ.next[e]!;
    const v = s.entTo[e]!;
    if (onPath[v] === 1) continue; // only possible through a zero-weight cycle
    if (reaches !== null && !reaches(v)) continue;
    onPath[v] = 1;
    nodes.push(v);
    entries.push(e);
    cursor.push(succ.head[v]!);
  }
  return results;
}

/** `reaches(v)`: can v reach t over successor edges without touching a node on the path? */
function reachabilityCheck(s: SearchState, t: number, succ: Successors, onPath: Uint8Array): (v: number) => boolean {
  const seen = new Int32Array(s.ids.length); // seen[x] === stamp: visited in the current check
  let stamp = 0;
  const stack: number[] = [];
  return (v) => {
    stamp++;
    stack.length = 0;
    stack.push(v);
    seen[v] = stamp;
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === t) return true;
      for (let e = succ.head[x]!; e !== NONE; e = succ.next[e]!) {
        const y = s.entTo[e]!;
        if (seen[y] !== stamp && onPath[y] === 0) {
          seen[y] = stamp;
          stack.push(y);
        }
      }
    }
    return false;
  };
}
