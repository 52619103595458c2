// The keyword index against the stored text: for every record of a text type, a bm25_docs entry
// [docNo, length] with the length of its text and a bm25_ids entry back; per type, bm25_stats
// counting exactly those documents and lengths; and bm25_post holding exactly one posting
// (docNo, tf, length) per (document, term) of its text, in well-formed blocks (search/postings.ts).
// Checked only when the index is built (meta "bm25" marker); the marker names the stemmer and fields.
import type { NodeItem } from "../../core/items.js";
import { builtBm25, type BuiltBm25 } from "./bm25-index.js";
import { documentTerms } from "./document.js";
import { blockEntries, ENTRY, SEALED_CAPACITY, TAIL, TAIL_CAPACITY, termKey } from "./postings.js";
import { createTokenizer } from "./tokenizer.js";
import { idOfValue, itemKey, keyId, labelRange, MAX_KEY, parseItemKey, type Key } from "../store/keys.js";
import { decodedEntries, keyParts, type CheckContext } from "../store/integrity.js";

/** termKey → docNo → [tf, length] */
type Postings = Map<string, Map<number, [number, number]>>;

const BM25_DBS = [
  { db: "bm25Docs", name: "bm25_docs", check: "bm25-doc" },
  { db: "bm25Ids", name: "bm25_ids", check: "bm25-doc" },
  { db: "bm25Stats", name: "bm25_stats", check: "bm25-stats" },
  { db: "bm25Post", name: "bm25_post", check: "bm25-posting" },
] as const;

/** Returns why the index was not checked, or null when it was. */
export function checkBm25(ctx: CheckContext): string | null {
  const built = builtBm25(ctx.dbs, ctx.read.transaction);
  if (built === null) return "bm25: no index is built (BM25 is off, or it is rebuilt at the next open)";
  for (const { db, name, check } of BM25_DBS) {
    for (const key of ctx.dbs[db].getKeys(ctx.read)) {
      ctx.tick();
      const label = key instanceof Uint8Array ? labelOfItemKey(key) : (keyParts(key)[0] as string);
      if (!built.fields.has(label)) ctx.report(check, name, key, `an entry of '${label}', which has no text fields`);
    }
  }
  for (const label of built.fields.keys()) checkType(ctx, built, label);
  return null;
}

/** A `bm25_ids` value as text: the id, or its bytes in hex when it is not 16 bytes. */
function idText(value: Uint8Array): string {
  return value.length === 16 ? idOfValue(value) : Buffer.from(value).toString("hex");
}

/** The label of a `bm25_docs` key, or "" (no type's) when it is malformed. */
function labelOfItemKey(key: Uint8Array): string {
  try {
    return parseItemKey(key).label;
  } catch {
    return "";
  }
}

const range = (ctx: CheckContext, prefix: Key) => ({ ...ctx.read, start: prefix, end: [...prefix, MAX_KEY] });
const labelKeys = (ctx: CheckContext, label: string) => ({ ...ctx.read, ...labelRange(label) });

function checkType(ctx: CheckContext, built: BuiltBm25, label: string): void {
  const { dbs } = ctx;
  const tokenize = createTokenizer(built.stemmer);
  const fields = built.fields.get(label)!;
  const expected: Postings = new Map();
  const docNos = new Map<number, string>();
  let docs = 0;
  let tokens = 0;
  let maxDocNo = -1;
  // A record that does not decode is skipped here: the records check reports it.
  for (const { key, value: rec } of decodedEntries(ctx, dbs.nodes, labelKeys(ctx, label))) {
    ctx.tick();
    if (rec.id !== keyId(key)) continue; // a record under another's key: the record check reports it
    const doc = documentTerms(rec, fields, tokenize);
    docs++;
    tokens += doc.length;
    const entry = dbs.bm25Docs.get(itemKey(label, rec.id), ctx.read);
    if (entry === undefined) {
      ctx.report("bm25-doc", "bm25_docs", [label, rec.id], `${ref(rec)} is not indexed`);
      continue;
    }
    const [docNo, length] = entry;
    ctx.counts.bm25Documents++;
    if (length !== doc.length)
      ctx.report("bm25-doc", "bm25_docs", [label, rec.id], `length ${length} is stored, the text has ${doc.length} terms`);
    const other = docNos.get(docNo);
    if (other !== undefined) ctx.report("bm25-doc", "bm25_docs", [label, rec.id], `document ${docNo} is also '${other}'`);
    docNos.set(docNo, rec.id);
    maxDocNo = Math.max(maxDocNo, docNo);
    const stored = dbs.bm25Ids.get([label, docNo], ctx.read);
    const back = stored === undefined ? undefined : idText(stored);
    if (back !== rec.id)
      ctx.report("bm25-doc", "bm25_ids", [label, docNo], `names ${back === undefined ? "nothing" : `'${back}'`}, not '${rec.id}'`);
    for (const [term, tf] of doc.tf) {
      const key = termKey(term);
      let docsOfTerm = expected.get(key);
      if (docsOfTerm === undefined) {
        docsOfTerm = new Map();
        expected.set(key, docsOfTerm);
      }
      docsOfTerm.set(docNo, [tf, doc.length]);
    }
  }
  for (const { key, value } of dbs.bm25Ids.getRange(range(ctx, [label]))) {
    ctx.tick();
    const id = idText(value);
    if (docNos.get(key[1] as number) !== id) ctx.report("bm25-doc", "bm25_ids", key, `names '${id}', which is not that document`);
  }
  for (const { key, value } of dbs.bm25Docs.getRange(labelKeys(ctx, label))) {
    ctx.tick();
    if (!dbs.nodes.doesExist(itemKey(label, keyId(key)), undefined as never, ctx.read))
      ctx.report("bm25-doc", "bm25_docs", key, `document ${value[0]} names no record`);
  }
  const stats = dbs.bm25Stats.get([label], ctx.read);
  const statsKey: Key = [label];
  if (stats === undefined) {
    if (docs > 0) ctx.report("bm25-stats", "bm25_stats", statsKey, `missing, the type has ${docs} documents`);
  } else {
    if (stats.docs !== docs) ctx.report("bm25-stats", "bm25_stats", statsKey, `docs is ${stats.docs}, the type has ${docs} documents`);
    if (stats.tokens !== tokens)
      ctx.report("bm25-stats", "bm25_stats", statsKey, `tokens is ${stats.tokens}, the documents' lengths add up to ${tokens}`);
    if (!(stats.nextDocNo > maxDocNo))
      ctx.report("bm25-stats", "bm25_stats", statsKey, `nextDocNo is ${stats.nextDocNo}, but document ${maxDocNo} exists`);
  }
  comparePostings(ctx, label, expected, docNos);
}

function ref(rec: NodeItem): string {
  return `'${rec.id}' of ${rec.label}`;
}

function comparePostings(ctx: CheckContext, label: string, expected: Postings, docNos: ReadonlyMap<number, string>): void {
  const stored: Postings = new Map();
  const hasTail = new Set<string>();
  for (const { key, value } of ctx.dbs.bm25Post.getRange(range(ctx, [label]))) {
    ctx.tick();
    const term = key[1] as string;
    const block = key[2] as number;
    const entries = blockEntries(value);
    const isTail = block === TAIL;
    if (isTail) hasTail.add(term);
    const n = entries.length / ENTRY;
    if (!Number.isInteger(n) || n === 0 || n > (isTail ? TAIL_CAPACITY : SEALED_CAPACITY)) {
      ctx.report("bm25-posting", "bm25_post", key, `a block of ${value.byteLength} bytes (${n} entries)`);
      continue;
    }
    if (!isTail && entries[0] !== block)
      ctx.report("bm25-posting", "bm25_post", key, `a sealed block keyed ${block} starts at document ${entries[0]}`);
    let docsOfTerm = stored.get(term);
    if (docsOfTerm === undefined) {
      docsOfTerm = new Map();
      stored.set(term, docsOfTerm);
    }
    let previous = -1;
    for (let i = 0; i < entries.length; i += ENTRY) {
      const docNo = entries[i]!;
      if (docNo <= previous) ctx.report("bm25-posting", "bm25_post", key, `document ${docNo} follows document ${previous}`);
      previous = docNo;
      if (docsOfTerm.has(docNo)) {
        ctx.report("bm25-posting", "bm25_post", key, `document ${docNo} has another posting for the term`);
        continue;
      }
      ctx.counts.bm25Postings++;
      docsOfTerm.set(docNo, [entries[i + 1]!, entries[i + 2]!]);
    }
  }
  for (const term of stored.keys())
    if (!hasTail.has(term)) ctx.report("bm25-posting", "bm25_post", [label, term, TAIL], "the term has sealed blocks but no tail");
  for (const [term, docs] of expected) {
    const got = stored.get(term);
    for (const [docNo, [tf, length]] of docs) {
      const have = got?.get(docNo);
      const where = `document ${docNo} ('${docNos.get(docNo)}')`;
      if (have === undefined) ctx.report("bm25-posting", "bm25_post", [label, term], `${where} has the term ${tf} times but no posting`);
      else if (have[0] !== tf || have[1] !== length)
        ctx.report(
          "bm25-posting",
          "bm25_post",
          [label, term],
          `${where}: posting (tf ${have[0]}, length ${have[1]}), the text has (tf ${tf}, length ${length})`,
        );
    }
  }
  for (const [term, docs] of stored) {
    const want = expected.get(term);
    for (const docNo of docs.keys()) {
      if (want?.has(docNo) !== true)
        ctx.report("bm25-posting", "bm25_post", [label, term], `a posting for document ${docNo}, whose text does not have the term`);
    }
  }
}
