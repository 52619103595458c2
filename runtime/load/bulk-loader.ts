// Loading records as given (strand import): each record keeps its id, is checked in full before
// anything of it is written (types, UNIQUE claims, id not taken, edge endpoints present with the
// declared types, vector dimension), then stored through the graph writer's fan-out, so a
// loaded record is described exactly like one a query added. Runs inside one write transaction
// (GraphStore.load): endpoints and claims of records loaded earlier in it are seen. Ids loaded by
// the import so far are kept in a LoadedIds table (loaded-ids.ts): while the store holds exactly
// those records (an import into an empty store), "id taken?" and "endpoint present?" are answered
// there, exactly, instead of by one LMDB lookup per label; otherwise LMDB is asked as well. The
// edges' adjacency entries are held by the loader (adjacency/bulk-lists.ts) and written by finish(),
// before the commit; an edge without fields may take a fast lane from its line's text
// (loadBareEdge), which stores exactly what load() would.
import type { ProgressSink } from "../../core/progress.js";
import { StrandError } from "../../core/errors.js";
import type { GraphItem, NodeItem, Props } from "../../core/items.js";
import type { StoreDbs } from "../store/dbs.js";
import { bareEdgeTotal } from "../records/edge-ends.js";
import { edgeExists } from "../records/edge-records.js";
import { uuidv7 } from "../store/ids.js";
import { newEdgeRecord, newNodeRecord, validateProps } from "../records/records.js";
import type { EdgeTypeInfo, SchemaInfo, TypeInfo, VectorTypeInfo } from "../store/schema-info.js";
import { checkVector, dimensionMismatch } from "../vector/metric.js";
import { newVectorRecord } from "../vector/vector-records.js";
import { BulkAdjacency } from "../adjacency/bulk-lists.js";
import type { GraphWriter } from "../write/graph-writer.js";
import { checkEdgeUnique, checkUnique } from "../indexes/index-writes.js";
import { uuidWordsAt } from "../store/id-words.js";
import { LoadedIds } from "./loaded-ids.js";
import { addStoredIds, type TaggedLabels } from "./stored-ids.js";
import { itemKey } from "../store/keys.js";

/** Stored ids read into the id table at most, per id the import expects (LoadedIds.expected). */
const STORED_IDS_PER_EXPECTED = 8;

/** What the fast lane (loadBareEdge) needs of an edge type without fields or UNIQUE. */
interface PlainEdge {
  readonly label: string;
  /** Tags (in LoadedIds) of the edge's ids and of its endpoints' declared types. */
  readonly tag: number;
  readonly fromTag: number;
  readonly toTag: number;
  /** BulkAdjacency groups of its out and in lists. */
  readonly out: number;
  readonly in: number;
}

/** One record to load, as the interchange format carries it (runtime/data/). */
export interface LoadRecord {
  readonly kind: "N" | "E" | "V";
  readonly label: string;
  /** Kept when given (any UUID, stored lower-cased); a new UUID v7 otherwise. */
  readonly id?: string;
  /** Edges: the endpoints' ids. */
  readonly from?: string;
  readonly to?: string;
  /** Vectors: the vector (for a type with an `embedding` field it may come as that field instead). */
  readonly data?: unknown;
  readonly props: Props;
}

export class RecordLoader {
  private readonly nowIso = new Date().toISOString();
  /** Per label, the tag its ids have in `loaded` (node and vector labels first, then edge labels). */
  private readonly tags = new Map<string, number>();
  private readonly tagLabels: { readonly label: string; readonly edge: boolean }[] = [{ label: "", edge: false }];
  /** True while the store holds exactly the records `loaded` has (then a miss there is a miss). */
  private readonly onlyLoaded: boolean;
  /** The load's adjacency entries, written by finish(). */
  private readonly adjacency = new BulkAdjacency();
  /** Words (uuidWords) of the record at hand: its id, from node, to node. */
  private readonly words = new Int32Array(12);
  /** Per edge label: its PlainEdge, or null when the fast path does not apply to it. */
  private readonly plainEdges = new Map<string, PlainEdge | null>();
  private lastPlain: PlainEdge | null = null;

  /**
   * @param loaded the ids loaded so far by this import (shared by the loaders of its files, one
   *   per transaction); a loader adds each record it stores.
   */
  constructor(
    private readonly dbs: StoreDbs,
    private readonly schema: SchemaInfo,
    private readonly writer: GraphWriter,
    private readonly loaded: LoadedIds = new LoadedIds(),
  ) {
    for (const label of [...schema.nodes.keys(), ...schema.vectors.keys()]) this.addTag(label, false);
    for (const label of schema.edges.keys()) this.addTag(label, true);
    // An import's first load into an empty store needs no count (the usual case: a cheap check).
    const stored = loaded.size === 0 && storeIsEmpty(dbs) ? 0 : storedRecordCount(dbs);
    // Its first load into a store that holds records: the table takes the store's ids, unless they
    // are many more than the input's (reading one costs about a tenth of asking LMDB per record,
    // bench/README.md).
    if (loaded.size === 0 && stored > 0 && loaded.complete && stored <= STORED_IDS_PER_EXPECTED * loaded.expected) {
      addStoredIds(dbs, this.taggedLabels(), loaded, stored);
    }
    this.onlyLoaded = loaded.complete && stored === loaded.size;
  }

  private taggedLabels(): TaggedLabels {
    const items = new Map<string, number>();
    const edges = new Map<string, number>();
    for (const [label, tag] of this.tags) (this.tagLabels[tag]!.edge ? edges : items).set(label, tag);
    return { items, edges };
  }

  private addTag(label: string, edge: boolean): void {
    this.tags.set(label, this.tagLabels.length);
    this.tagLabels.push({ label, edge });
  }

  /** Checks and stores one record; on a StrandError nothing of the record was written. */
  load(record: LoadRecord): GraphItem {
    const info = this.typeOf(record);
    const rec = this.build(info, record);
    this.checkClaims(info, rec);
    this.writer.insertLoaded(info, rec);
    const tag = this.tags.get(info.name)!;
    if (info.kind !== "E") {
      this.loaded.add(rec.id, tag);
      return rec;
    }
    const w = this.words;
    // Checked UUIDs by now (build), of 36 characters.
    uuidWordsAt(rec.id, 0, w, 0);
    uuidWordsAt(rec.from_node as string, 0, w, 4);
    uuidWordsAt(rec.to_node as string, 0, w, 8);
    this.adjacency.add(this.adjacency.group("out", info.name), w, 4, 0, 8);
    this.adjacency.add(this.adjacency.group("in", info.name), w, 8, 0, 4);
    this.loaded.addWords(w, 0, tag);
    return rec;
  }

  /**
   * load() of the edge {label, id, from, to} without fields, read straight from a line's text
   * (the interchange format's common shape, runtime/data/interchange.ts): the label is
   * text[labelAt, labelEnd), the ids the 36 characters at idAt, fromAt and toAt. No record
   * object is built and each id is parsed once. It stores the edge and returns true only when
   * every check passes on this path (an edge type without fields or UNIQUE, three UUIDs, a new
   * id, both endpoints loaded by this import with the declared types, nothing stored before the
   * import); otherwise it writes nothing and returns false, and the caller takes load(), which
   * gives the same result or the same error.
   */
  loadBareEdge(text: string, labelAt: number, labelEnd: number, idAt: number, fromAt: number, toAt: number): boolean {
    if (this.lookupNeeded) return false;
    let plain = this.lastPlain;
    if (plain === null || labelEnd - labelAt !== plain.label.length || !text.startsWith(plain.label, labelAt)) {
      plain = this.plainEdge(text.slice(labelAt, labelEnd));
      if (plain === null) return false;
      this.lastPlain = plain;
    }
    const w = this.words;
    if (!uuidWordsAt(text, idAt, w, 0) || !uuidWordsAt(text, fromAt, w, 4) || !uuidWordsAt(text, toAt, w, 8)) return false;
    const loaded = this.loaded;
    if (loaded.getWords(w, 4) !== plain.fromTag || loaded.getWords(w, 8) !== plain.toTag) return false;
    // The id, unless taken; the last check (nothing after it can refuse the edge).
    if (loaded.addWords(w, 0, plain.tag) !== 0) return false;
    this.writer.insertLoadedEnds(plain.label, w, 0);
    this.adjacency.add(plain.out, w, 4, 0, 8);
    this.adjacency.add(plain.in, w, 8, 0, 4);
    return true;
  }

  /**
   * Writes the adjacency lists of everything loaded, then the keyword index's postings (the
   * store's own finish of the writer then finds none): the load's last steps before its commit.
   */
  finish(progress?: ProgressSink): void {
    this.adjacency.flush(this.dbs, progress);
    this.writer.finish(progress);
  }

  private plainEdge(label: string): PlainEdge | null {
    let plain = this.plainEdges.get(label);
    if (plain !== undefined) return plain;
    const info: EdgeTypeInfo | undefined = this.schema.edges.get(label);
    plain = null;
    const fromTag = info && this.tags.get(info.from);
    const toTag = info && this.tags.get(info.to);
    if (info !== undefined && info.fields.length === 0 && !info.unique && fromTag !== undefined && toTag !== undefined) {
      plain = {
        label,
        tag: this.tags.get(label)!,
        fromTag,
        toTag,
        out: this.adjacency.group("out", label),
        in: this.adjacency.group("in", label),
      };
    }
    if (this.plainEdges.size < 1000) this.plainEdges.set(label, plain);
    return plain;
  }

  /** Whether LMDB must be asked about ids `loaded` does not hold (records stored before the import). */
  private get lookupNeeded(): boolean {
    return !this.onlyLoaded || !this.loaded.complete;
  }

  private typeOf(record: LoadRecord): TypeInfo {
    const info =
      record.kind === "N"
        ? this.schema.nodes.get(record.label)
        : record.kind === "E"
          ? this.schema.edges.get(record.label)
          : this.schema.vectors.get(record.label);
    if (info === undefined) throw new StrandError("SCHEMA_MISMATCH", `label: the schema has no ${record.kind}::${record.label}`);
    return info;
  }

  private build(info: TypeInfo, record: LoadRecord): NodeItem {
    const id = this.newId(record.id);
    if (info.kind === "V") return this.buildVector(info as VectorTypeInfo, id, record);
    const values = validateProps(info, record.props);
    if (info.kind === "N") return newNodeRecord(info, id, values, this.nowIso);
    const edge = this.schema.edges.get(info.name)!;
    const from = this.endpoint(edge.name, "from", edge.from, record.from);
    const to = this.endpoint(edge.name, "to", edge.to, record.to);
    return newEdgeRecord(edge, id, from, to, values, this.nowIso);
  }

  private buildVector(info: VectorTypeInfo, id: string, record: LoadRecord): NodeItem {
    let vector = record.data;
    let props = record.props;
    if (info.embedding !== null && vector === undefined && props[info.embedding.name] !== undefined) {
      vector = props[info.embedding.name];
      props = { ...props };
      delete props[info.embedding.name];
    }
    if (vector === undefined) throw new StrandError("INVALID_VALUE", `data: V::${info.name} needs its vector in "data"`);
    return newVectorRecord(info, checkVector(vector, `data of V::${info.name}`), props, this.nowIso, id);
  }

  /** The record's id: given (a UUID not used by any record) or new. */
  private newId(given: string | undefined): string {
    if (given === undefined) return uuidv7();
    // Ids are unique across every label and kind (the read cache keys records by id alone).
    const tag = this.loaded.get(given);
    if (tag < 0) throw new StrandError("INVALID_VALUE", `id: expected a UUID, got ${JSON.stringify(given)}`);
    const id = given.toLowerCase();
    if (tag !== 0) {
      const { label, edge } = this.tagLabels[tag]!;
      throw taken(id, edge ? `an edge ${label}` : `a ${label}`);
    }
    if (!this.lookupNeeded) return id;
    for (const label of [...this.schema.nodes.keys(), ...this.schema.vectors.keys()]) {
      if (this.dbs.nodes.doesExist(itemKey(label, id), undefined as unknown as NodeItem)) throw taken(id, `a ${label}`);
    }
    // The edge_ends entries the writer holds unwritten must be in the store to be found: past the
    // table's limit `loaded` does not have their ids (an edge id given twice was taken).
    if (!this.loaded.complete) this.writer.flushBuffered();
    for (const label of this.schema.edges.keys()) {
      if (edgeExists(this.dbs, label, id, undefined)) throw taken(id, `an edge ${label}`);
    }
    return id;
  }

  /** The endpoint's id when a node of the declared type has it (stored, or loaded earlier). */
  private endpoint(edgeLabel: string, end: "from" | "to", expected: string, given: string | undefined): string {
    if (given === undefined) throw new StrandError("INVALID_VALUE", `${end}: E::${edgeLabel} needs "${end}", the id of a ${expected}`);
    const tag = this.loaded.get(given);
    if (tag < 0) throw new StrandError("INVALID_VALUE", `${end}: expected a UUID, got ${JSON.stringify(given)}`);
    const id = given.toLowerCase();
    if (tag !== 0 && this.tagLabels[tag]!.label === expected) return id;
    if (tag === 0 && this.lookupNeeded && this.dbs.nodes.doesExist(itemKey(expected, id), undefined as unknown as NodeItem)) return id;
    for (const other of [...this.schema.nodes.keys(), ...this.schema.vectors.keys()]) {
      if (other !== expected && this.dbs.nodes.doesExist(itemKey(other, id), undefined as unknown as NodeItem)) {
        throw new StrandError("EDGE_TYPE_MISMATCH", `${end}: E::${edgeLabel} must go ${end} a ${expected}, but '${id}' is a ${other}`);
      }
    }
    throw new StrandError("NOT_FOUND", `${end}: no ${expected} '${id}' (neither stored nor earlier in the input)`);
  }

  /** Everything the writer's fan-out would refuse, checked before it writes anything. */
  private checkClaims(info: TypeInfo, rec: NodeItem): void {
    checkUnique(this.dbs, info, null, rec);
    if (info.kind === "E") checkEdgeUnique(this.dbs, this.schema.edges.get(info.name)!, rec.from_node as string, rec.to_node as string);
    if (info.kind === "V") {
      const vector = (info as VectorTypeInfo).embedding ? rec[(info as VectorTypeInfo).embedding!.name] : rec.data;
      const meta = this.dbs.vectorTypes.get([info.name]);
      const length = (vector as readonly number[]).length;
      if (meta !== undefined && meta.dimension !== length) throw dimensionMismatch(info.name, meta.dimension, length);
    }
  }
}

/** Whether the store holds no record at all (one key read per record database). */
function storeIsEmpty(dbs: StoreDbs): boolean {
  for (const db of [dbs.nodes, dbs.edges, dbs.edgeEnds] as const) for (const _ of db.getKeys({ limit: 1 })) return false;
  return true;
}

/** How many records the store holds: a count of the record databases' keys and of the bare edges' entries. */
function storedRecordCount(dbs: StoreDbs): number {
  // An edge without fields has no record, only its entry in an `edge_ends` block (records/edge-ends.ts).
  return dbs.nodes.getKeysCount() + dbs.edges.getKeysCount() + bareEdgeTotal(dbs.edgeEnds);
}

function taken(id: string, by: string): StrandError {
  return new StrandError("UNIQUE_VIOLATION", `id: '${id}' is already the id of ${by}`);
}
