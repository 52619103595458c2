// The kill -9 campaign's write stream: lanes of sequential writes, each to its own records, mixing
// every kind of write the store fans out (nodes with index entries, UNIQUE claims and BM25 text,
// FOR ingests, updates, drops with their edges, edges, vectors and vector drops).
import type { InFlight, Model } from "./kill9-model.js";
import { between, pick, type Random } from "./random.js";
import { post } from "./strand-child.js";

export const GROUPS = 16;
export const DIMENSION = 8;
const WORDS = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris", "juniper"];

export interface WriteTally {
  /** Writes answered 200. */
  acked: number;
  /** Records those writes created, updated or removed (an ingest counts each item). */
  records: number;
  /** Writes answered with anything but 200: none is expected. */
  unexpected: string[];
}

interface Op {
  query: string;
  params: unknown;
  inFlight: InFlight;
  records: number;
  /** Records the acknowledged write in the model. */
  apply(body: unknown): void;
}

const textOf = (random: Random, token: string): string => `${pick(random, WORDS)} ${pick(random, WORDS)} ${token}`;

function itemOp(model: Model, lane: number, random: Random, key: string): { params: object; apply: (id: string) => void } {
  const token = `t${key}v0`;
  const params = { key, grp: between(random, 0, GROUPS), text: textOf(random, token), n: between(random, -1000, 1000) };
  return { params, apply: (id) => model.addItem(lane, { ...params, id, token, alive: true }) };
}

function nextOp(model: Model, lane: number, random: Random, name: () => string): Op {
  const live = model.liveItems(lane);
  const r = random();
  if (r < 0.1) {
    const count = between(random, 1, 20);
    const entries = Array.from({ length: count }, () => itemOp(model, lane, random, name()));
    const items = entries.map((e) => e.params as { key: string });
    return {
      query: "Ingest",
      params: { items },
      inFlight: { kind: "add", keys: items.map((i) => i.key) },
      records: count,
      // An ingest returns no ids: the check after the next restart reads them from the scan.
      apply: () => {
        for (const e of entries) e.apply("");
      },
    };
  }
  if (r < 0.2 && live.length >= 2) {
    const from = pick(random, live);
    const to = pick(random, live);
    const w = between(random, 0, 100);
    return {
      query: "LinkItems",
      params: { from: from.id, to: to.id, w },
      inFlight: { kind: "link", from: from.id, to: to.id, w },
      records: 1,
      apply: (body) => {
        const id = (body as { link: { id: string } }).link.id;
        model.links.set(id, { id, from: from.id, to: to.id, w });
      },
    };
  }
  if (r < 0.3 && live.length > 0) {
    const item = pick(random, live);
    const version = Number(item.token.slice(item.token.lastIndexOf("v") + 1)) + 1;
    const token = `t${item.key}v${version}`;
    const text = textOf(random, token);
    const n = between(random, -1000, 1000);
    return {
      query: "UpdateItem",
      params: { id: item.id, text, n },
      inFlight: { kind: "update", key: item.key, text, token, n },
      records: 1,
      apply: () => {
        Object.assign(item, { text, token, n });
        model.touched.add(item.key);
      },
    };
  }
  if (r < 0.37 && live.length > 0) {
    const item = pick(random, live);
    return {
      query: "DropItem",
      params: { id: item.id },
      inFlight: { kind: "drop", key: item.key },
      records: 1,
      apply: () => model.dropItem(item.key),
    };
  }
  const vecs = model.liveVecs(lane);
  if (r < 0.45 && vecs.length > 0) {
    const vec = pick(random, vecs);
    return {
      query: "DropVec",
      params: { id: vec.id },
      inFlight: { kind: "dropVec", key: vec.key },
      records: 1,
      apply: () => {
        vec.alive = false;
      },
    };
  }
  if (r < 0.6) {
    const key = `v${name()}`;
    // Distinct directions (cosine): each vector is its own nearest neighbour.
    const v = Array.from({ length: DIMENSION }, () => Math.round((random() * 2 - 1) * 1e6) / 1e6);
    return {
      query: "AddVec",
      params: { v, key },
      inFlight: { kind: "addVec", key },
      records: 1,
      apply: (body) => model.addVec(lane, { key, id: (body as { vec: { id: string } }).vec.id, v, alive: true }),
    };
  }
  const { params, apply } = itemOp(model, lane, random, name());
  return {
    query: "AddItem",
    params,
    inFlight: { kind: "add", keys: [(params as { key: string }).key] },
    records: 1,
    apply: (body) => apply((body as { item: { id: string } }).item.id),
  };
}

/**
 * Writes until `stopped()`, one request at a time. A request the dying server never answered
 * stays in `model.inFlight` for the check after the restart.
 */
export async function writeLane(
  url: string,
  model: Model,
  lane: number,
  random: Random,
  prefix: string,
  stopped: () => boolean,
  tally: WriteTally,
): Promise<void> {
  let seq = 0;
  const name = (): string => `${prefix}l${lane}s${seq++}`;
  while (!stopped()) {
    const op = nextOp(model, lane, random, name);
    model.inFlight.set(lane, op.inFlight);
    let reply: { status: number; body: unknown };
    try {
      reply = await post(url, op.query, op.params);
    } catch {
      return; // no answer: the server is gone, the write stays in flight
    }
    model.inFlight.delete(lane);
    if (reply.status !== 200) {
      tally.unexpected.push(`${op.query} ${JSON.stringify(op.params).slice(0, 200)} → ${reply.status} ${JSON.stringify(reply.body)}`);
      continue;
    }
    op.apply(reply.body);
    tally.acked++;
    tally.records += op.records;
  }
}
