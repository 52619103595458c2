// The chunks an export hands out (export.ts): lines encoded straight into a chunk buffer; a full
// chunk (whole lines) goes to the writer. Two buffers take turns: one is filled while the writer
// writes the other, and is reused once its write is done, so an export's memory is two chunks
// however much it writes (a new buffer per chunk left the allocator holding tens of MB of freed
// ones). A line of an edge without fields is
// written byte by byte from its parts (all ASCII: a JSON prefix and three UUIDs), either as
// texts or as the ids' stored bytes, the way that costs least per line; any other line through
// UTF-8.
import { bareEdgeLine } from "./interchange.js";

/** Bytes of JSON Lines gathered before each hand-over to the writer (whole lines only). */
const CHUNK_BYTES = 1 << 20;

/**
 * Takes one chunk of whole UTF-8 lines. The chunk's memory is reused once the returned promise
 * resolves: by then the taker must have written it out (e.g. a stream's write callback) or
 * copied it.
 */
export type ChunkWriter = (chunk: Buffer) => Promise<void>;

/** Between a bare edge line's id and from node, and between from and to (bareEdgeLine). */
const BARE_MIDDLE = '","from":"';
const BARE_TO = '","to":"';
const BARE_END = '"}';
const BARE_MIDDLE_BYTES = Buffer.from(BARE_MIDDLE, "latin1");
const BARE_TO_BYTES = Buffer.from(BARE_TO, "latin1");
/** A textual UUID's length: 32 hex digits and 4 dashes. */
const UUID_CHARS = 36;

/** The two lower-case hex digits of each byte value, as char codes (high digit << 8 | low digit). */
const HEX_PAIR = new Uint16Array(256);
for (let i = 0; i < 256; i++) HEX_PAIR[i] = ("0123456789abcdef".charCodeAt(i >> 4) << 8) | "0123456789abcdef".charCodeAt(i & 15);

export class LineBuffer {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  /** The other buffer, being written while `written` is pending. */
  private spare = Buffer.allocUnsafe(CHUNK_BYTES);
  private written: Promise<void> | null = null;
  private used = 0;
  /** Records in `chunk`, told to `advance` at each hand-over. */
  private pending = 0;
  /** A line that did not fit the chunk, written into the next one. */
  private spill: string | null = null;
  /** A line longer than a chunk, handed over on its own. */
  private oversize: string | null = null;
  private prefixTexts = new Map<Uint8Array, string>();

  constructor(
    private readonly write: ChunkWriter,
    private readonly advance: (records: number) => void,
  ) {}

  /** Adds one line and its newline; true when the caller must await handOver() before the next. */
  add(line: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; one more for the newline.
    if (this.used + line.length * 3 + 1 > CHUNK_BYTES) {
      if (line.length * 3 + 1 > CHUNK_BYTES) {
        this.oversize = `${line}\n`;
        return true;
      }
      this.spill = line;
      return true;
    }
    this.used += this.chunk.write(line, this.used);
    this.chunk[this.used++] = 10;
    this.pending++;
    return false;
  }

  /** Adds the line bareEdgeLine(prefix, id, from, to) would give; true as for add. */
  addBareEdge(prefix: Uint8Array, id: string, from: string, to: string): boolean {
    const length = prefix.length + id.length + from.length + to.length + BARE_MIDDLE.length + BARE_TO.length + BARE_END.length + 1;
    if (this.used + length > CHUNK_BYTES) {
      this.spill = bareEdgeLine(this.prefixText(prefix), id, from, to);
      return true;
    }
    const c = this.chunk;
    let at = this.used;
    c.set(prefix, at);
    at = writeAscii(c, at + prefix.length, id);
    at = writeAscii(c, at, BARE_MIDDLE);
    at = writeAscii(c, at, from);
    at = writeAscii(c, at, BARE_TO);
    at = writeAscii(c, at, to);
    at = endBareLine(c, at);
    this.used = at;
    this.pending++;
    return false;
  }

  /**
   * addBareEdge with the ids given as their stored 16 bytes (store/id-bytes.ts) at id[idAt],
   * from[fromAt] and to[toAt]: written as lower-case UUID text with no string made.
   */
  addBareEdgeBytes(
    prefix: Uint8Array,
    id: Uint8Array,
    idAt: number,
    from: Uint8Array,
    fromAt: number,
    to: Uint8Array,
    toAt: number,
  ): boolean {
    const length = prefix.length + 3 * UUID_CHARS + BARE_MIDDLE.length + BARE_TO.length + BARE_END.length + 1;
    if (this.used + length > CHUNK_BYTES) {
      this.spill = bareEdgeLine(this.prefixText(prefix), uuidText(id, idAt), uuidText(from, fromAt), uuidText(to, toAt));
      return true;
    }
    const c = this.chunk;
    let at = this.used;
    c.set(prefix, at);
    at = writeUuid(c, at + prefix.length, id, idAt);
    c.set(BARE_MIDDLE_BYTES, at);
    at = writeUuid(c, at + BARE_MIDDLE_BYTES.length, from, fromAt);
    c.set(BARE_TO_BYTES, at);
    at = writeUuid(c, at + BARE_TO_BYTES.length, to, toAt);
    this.used = endBareLine(c, at);
    this.pending++;
    return false;
  }

  private prefixText(prefix: Uint8Array): string {
    let text = this.prefixTexts.get(prefix);
    if (text === undefined) {
      text = Buffer.from(prefix).toString("utf8");
      this.prefixTexts.set(prefix, text);
    }
    return text;
  }

  /**
   * Hands the chunk over, then the line that did not fit, if any. The chunk's write goes on while
   * the next chunk fills; what waits is the write before it, whose buffer the next chunk takes.
   */
  async handOver(): Promise<void> {
    if (this.written !== null) await this.written;
    this.written = null;
    if (this.used > 0) {
      this.written = this.write(this.chunk.subarray(0, this.used));
      // Its failure is met at the next hand-over; until then it is not an unhandled rejection.
      this.written.catch(() => {});
      [this.chunk, this.spare] = [this.spare, this.chunk];
    }
    this.used = 0;
    if (this.oversize !== null) {
      if (this.written !== null) await this.written;
      this.written = null;
      await this.write(Buffer.from(this.oversize));
      this.oversize = null;
      this.pending++;
    }
    if (this.spill !== null) {
      const line = this.spill;
      this.spill = null;
      this.add(line);
    }
    this.advance(this.pending);
    this.pending = 0;
  }

  /** Hands over what is left; resolves once every write is done. */
  async end(): Promise<void> {
    await this.handOver();
    if (this.used > 0) await this.handOver();
    if (this.written !== null) await this.written;
    this.written = null;
  }
}

/** `"}` and the newline at `at`; returns the offset after them. */
function endBareLine(c: Uint8Array, at: number): number {
  c[at] = 34; // "
  c[at + 1] = 125; // }
  c[at + 2] = 10;
  return at + 3;
}

/** Writes an ASCII string's characters as bytes at `at`; returns the offset after them. */
function writeAscii(target: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) target[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/** Writes the 16 id bytes at bytes[from] as a lower-case textual UUID at `at`; returns the offset after it. */
function writeUuid(target: Uint8Array, at: number, bytes: Uint8Array, from: number): number {
  let o = at;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) target[o++] = 45; // -
    const pair = HEX_PAIR[bytes[from + i]!]!;
    target[o] = pair >> 8;
    target[o + 1] = pair & 0xff;
    o += 2;
  }
  return o;
}

/** The textual UUID of the 16 bytes at bytes[from] (for a line that does not fit the chunk). */
function uuidText(bytes: Uint8Array, from: number): string {
  const text = new Uint8Array(UUID_CHARS);
  writeUuid(text, 0, bytes, from);
  return Buffer.from(text).toString("latin1");
}
