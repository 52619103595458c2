// The kill -9 campaign's check of a restarted server against its model: every acknowledged write
// is there (a loss otherwise), the write in flight at the kill is wholly there or wholly absent,
// nothing else appeared, and every index lookup (unique key, indexed WHERE, adjacency, BM25,
// vector search, COUNT) agrees with the scans. Afterwards the model holds what the server holds.
import type { InFlight, Model } from "./kill9-model.js";
import { GROUPS } from "./kill9-writes.js";
import { pick, type Random } from "./random.js";
import { post } from "./strand-child.js";

export interface CheckOutcome {
  checks: number;
  /** Acknowledged writes missing or changed. */
  losses: string[];
  /** Any other disagreement. */
  findings: string[];
}

interface ItemRecord {
  id: string;
  key: string;
  grp: number;
  text: string;
  n: number;
}
interface LinkRecord {
  id: string;
  from_node: string;
  to_node: string;
  w: number;
}
interface VecRecord {
  id: string;
  key: string;
  data: number[];
}

async function read<T>(url: string, query: string, params: unknown, field: string): Promise<T> {
  const reply = await post(url, query, params);
  if (reply.status !== 200) throw new Error(`${query} ${JSON.stringify(params)} → ${reply.status} ${JSON.stringify(reply.body)}`);
  return (reply.body as Record<string, T>)[field]!;
}

const sameItem = (a: ItemRecord, b: { id: string; grp: number; text: string; n: number }): boolean =>
  a.id === b.id && a.grp === b.grp && a.text === b.text && a.n === b.n;

export async function checkServer(url: string, model: Model, random: Random): Promise<CheckOutcome> {
  const out: CheckOutcome = { checks: 0, losses: [], findings: [] };
  const check = (ok: boolean, message: string, loss = false): void => {
    out.checks++;
    if (!ok) (loss ? out.losses : out.findings).push(message);
  };
  const items = new Map((await read<ItemRecord[]>(url, "AllItems", {}, "items")).map((i) => [i.key, i]));
  const links = new Map((await read<LinkRecord[]>(url, "AllLinks", {}, "links")).map((l) => [l.id, l]));
  const vecs = new Map((await read<VecRecord[]>(url, "AllVecs", {}, "vecs")).map((v) => [v.key, v]));

  // The writes in flight at the kill: either outcome is right; the model takes the one that happened.
  const open = [...model.inFlight.values()];
  model.inFlight.clear();
  const pending = new Set<string>();
  for (const op of open) settleInFlight(op, model, items, links, vecs, check, pending);

  for (const item of model.items.values()) {
    if (pending.has(item.key)) continue;
    const found = items.get(item.key);
    if (item.alive) {
      check(
        found !== undefined && (item.id === "" || sameItem(found, item)),
        `item ${item.key}: acknowledged ${JSON.stringify(item)}, found ${JSON.stringify(found)}`,
        true,
      );
      if (found !== undefined && item.id === "") item.id = found.id;
    } else check(found === undefined, `item ${item.key} was dropped (acknowledged) but is back: ${JSON.stringify(found)}`, true);
  }
  const known = new Set(model.items.keys());
  for (const key of items.keys()) check(known.has(key), `item ${key} was never written: ${JSON.stringify(items.get(key))}`);
  for (const link of model.links.values())
    check(links.has(link.id), `link ${link.id} (${link.from} → ${link.to}) acknowledged, missing`, true);
  for (const [id, link] of links) check(model.links.has(id), `link ${id} was never written: ${JSON.stringify(link)}`);
  for (const vec of model.vecs.values()) {
    if (pending.has(vec.key)) continue;
    const found = vecs.get(vec.key);
    if (vec.alive) check(found?.id === vec.id, `vector ${vec.key} acknowledged, found ${JSON.stringify(found)}`, true);
    else check(found === undefined, `vector ${vec.key} was dropped (acknowledged) but is back`, true);
  }
  for (const key of vecs.keys()) check(model.vecs.has(key), `vector ${key} was never written`);

  await compareIndexes(url, model, random, { items, links, vecs }, check);
  model.touched.clear();
  return out;
}

type Check = (ok: boolean, message: string, loss?: boolean) => void;

/** Decides a write sent before the kill by what the scans show, and records it in the model. */
function settleInFlight(
  op: InFlight,
  model: Model,
  items: Map<string, ItemRecord>,
  links: Map<string, LinkRecord>,
  vecs: Map<string, VecRecord>,
  check: Check,
  pending: Set<string>,
): void {
  switch (op.kind) {
    case "add": {
      const present = op.keys.filter((k) => items.has(k));
      check(
        present.length === 0 || present.length === op.keys.length,
        `a write of ${op.keys.length} items was cut: ${present.length} saved`,
      );
      for (const key of op.keys) {
        model.items.delete(key); // not acknowledged: it is in the model only if it was saved
        const found = items.get(key);
        if (found !== undefined) model.items.set(key, { ...found, token: `t${key}v0`, alive: true });
      }
      return;
    }
    case "update": {
      const item = model.items.get(op.key)!;
      const found = items.get(op.key);
      const updated = found !== undefined && sameItem(found, { ...item, text: op.text, n: op.n });
      check(
        updated || (found !== undefined && sameItem(found, item)),
        `item ${op.key}: neither before nor after the update in flight: ${JSON.stringify(found)}`,
        true,
      );
      if (updated) Object.assign(item, { text: op.text, token: op.token, n: op.n });
      pending.add(op.key);
      return;
    }
    case "drop": {
      const item = model.items.get(op.key)!;
      const found = items.get(op.key);
      check(found === undefined || sameItem(found, item), `item ${op.key}: changed by a drop in flight: ${JSON.stringify(found)}`, true);
      if (found === undefined) model.dropItem(op.key);
      pending.add(op.key);
      return;
    }
    case "link": {
      const known = new Set(model.links.keys());
      const saved = [...links.values()].filter((l) => !known.has(l.id) && l.from_node === op.from && l.to_node === op.to && l.w === op.w);
      check(saved.length <= 1, `a link write in flight was saved ${saved.length} times`);
      for (const l of saved) model.links.set(l.id, { id: l.id, from: op.from, to: op.to, w: op.w });
      return;
    }
    case "addVec": {
      const found = vecs.get(op.key);
      if (found !== undefined) model.vecs.set(op.key, { key: op.key, id: found.id, v: found.data, alive: true });
      pending.add(op.key);
      return;
    }
    case "dropVec": {
      const vec = model.vecs.get(op.key)!;
      const found = vecs.get(op.key);
      check(found === undefined || found.id === vec.id, `vector ${op.key}: changed by a drop in flight`, true);
      if (found === undefined) vec.alive = false;
      pending.add(op.key);
    }
  }
}

/** Every index read agrees with the scans (each comparison is one check). */
async function compareIndexes(
  url: string,
  model: Model,
  random: Random,
  scans: { items: Map<string, ItemRecord>; links: Map<string, LinkRecord>; vecs: Map<string, VecRecord> },
  check: Check,
): Promise<void> {
  const all = [...scans.items.values()];
  check((await read<number>(url, "CountItems", {}, "total")) === all.length, `COUNT disagrees with the scan (${all.length})`);
  for (let grp = 0; grp < GROUPS; grp++) {
    const viaIndex = (await read<ItemRecord[]>(url, "InGroup", { grp }, "items")).map((i) => i.id).sort();
    const viaScan = all
      .filter((i) => i.grp === grp)
      .map((i) => i.id)
      .sort();
    check(
      JSON.stringify(viaIndex) === JSON.stringify(viaScan),
      `grp ${grp}: the index holds ${viaIndex.length} items, the scan ${viaScan.length}`,
    );
  }
  // The unique index: every key written since the last check, and a sample of the rest.
  const keys = new Set([...model.touched].filter((k) => model.items.has(k)));
  for (let i = 0; i < 40 && all.length > 0; i++) keys.add(pick(random, all).key);
  for (const key of keys) {
    const found = await read<ItemRecord | null>(url, "ByKey", { key }, "item");
    const scanned = scans.items.get(key);
    check(
      JSON.stringify(found) === JSON.stringify(scanned ?? null),
      `ByKey ${key}: ${JSON.stringify(found)} but the scan has ${JSON.stringify(scanned)}`,
    );
  }
  for (let i = 0; i < 20 && all.length > 0; i++) {
    const item = pick(random, all);
    const viaAdjacency = (await read<LinkRecord[]>(url, "LinksOf", { id: item.id }, "links")).map((l) => l.id).sort();
    const viaScan = [...scans.links.values()]
      .filter((l) => l.from_node === item.id)
      .map((l) => l.id)
      .sort();
    check(
      JSON.stringify(viaAdjacency) === JSON.stringify(viaScan),
      `LinksOf ${item.key}: adjacency ${viaAdjacency.length}, scan ${viaScan.length}`,
    );
    const model_ = model.items.get(item.key);
    if (model_ === undefined) continue;
    const hits = await read<{ id: string }[]>(url, "SearchText", { q: model_.token, k: 1 }, "hits");
    check(hits[0]?.id === item.id, `SearchBM25 ${model_.token}: ${JSON.stringify(hits[0]?.id)}, expected ${item.id}`);
  }
  const vecs = [...scans.vecs.values()];
  for (let i = 0; i < 20 && vecs.length > 0; i++) {
    const vec = pick(random, vecs);
    const hits = await read<{ id: string }[]>(url, "Nearest", { v: vec.data, k: 1 }, "hits");
    check(hits[0]?.id === vec.id, `SearchV for vector ${vec.key}: ${JSON.stringify(hits[0]?.id)}, expected ${vec.id}`);
  }
}
