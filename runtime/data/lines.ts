// Reading an input file synchronously, in chunks (an import runs inside one synchronous write
// transaction, so it cannot await a stream): text chunks decoded as UTF-8, and JSON Lines.
import { isUtf8 } from "node:buffer";
import fs from "node:fs";

const CHUNK_BYTES = 1 << 20;

/**
 * The longest line read as one string: V8's limit on a string's length (in UTF-16 units; a line
 * of at most this many UTF-8 bytes always fits). A longer one threw "Cannot create a string
 * longer than ..." with no file or line.
 */
export const MAX_LINE_BYTES = 0x1fffffe8;

/** A line longer than the reader takes (MAX_LINE_BYTES). */
export class LineTooLong extends Error {
  constructor(
    readonly line: number,
    readonly limit: number,
  ) {
    super(`line: longer than ${limit} bytes, the most one line may hold`);
  }
}

/** Bytes of a file that are no UTF-8 (fileChunks): where, as a range of the file's bytes. */
export class NotUtf8 extends Error {
  constructor(
    readonly from: number,
    readonly to: number,
  ) {
    super(`not valid UTF-8 (bytes that are no UTF-8 character, in bytes ${from} to ${to} of the file)`);
  }
}

/**
 * The file's text in chunks; `onBytes` hears how many bytes each chunk took. Throws NotUtf8 at
 * the first chunk holding bytes that are no UTF-8 (a lenient decoder would put U+FFFD there, and
 * the import would store text the file does not hold).
 */
export function* fileChunks(path: string, onBytes: (n: number) => void = () => {}): Generator<string> {
  const fd = fs.openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    // The byte order mark is taken off below, as forEachFileLine does.
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    const decode = (bytes: Uint8Array | undefined, at: number): string => {
      try {
        return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
      } catch {
        throw new NotUtf8(Math.max(0, at - 3), at + (bytes?.length ?? 0));
      }
    };
    let first = true;
    let offset = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      let text = decode(buffer.subarray(0, n), offset);
      offset += n;
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark
      first = false;
      onBytes(n);
      if (text !== "") yield text;
    }
    const rest = decode(undefined, offset);
    if (rest !== "") yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The first line of the file (1-based, counted by LF) whose bytes are no UTF-8, with the offset
 * of that line's first byte; null when every line is UTF-8. A newline byte is never part of a
 * multi-byte character, so each line is checked on its own: for saying where a decoder's
 * refusal (NotUtf8, at a chunk's granularity) is.
 */
export function firstLineNotUtf8(path: string): { line: number; offset: number } | null {
  let found: { line: number; offset: number } | null = null;
  try {
    scanLines(
      path,
      () => {},
      MAX_LINE_BYTES,
      (buffer, start, end, line, offset) => {
        if (isUtf8(buffer.subarray(start, end))) return true;
        found = { line, offset };
        return false;
      },
    );
  } catch (error) {
    if (!(error instanceof LineTooLong)) throw error;
  }
  return found;
}

/**
 * The file's non-blank lines (LF or CRLF) with their 1-based line numbers, handed to `each` in
 * order; `onBytes` hears how many bytes each read took. The same lines as
 * forEachLine(fileChunks(path)), found in the bytes (a newline byte is never part of a multi-byte
 * UTF-8 character) and decoded one line at a time: no chunk string is built, sliced and
 * concatenated (half the time of reading an import's lines).
 */
export function forEachFileLine(path: string, onBytes: (n: number) => void, each: LineHandler, maxLineBytes = MAX_LINE_BYTES): void {
  scanLines(path, onBytes, maxLineBytes, (buffer, start, end, line) => {
    // A byte order mark before the first line; a CR before a line's LF.
    const from = line === 1 && end - start >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? start + 3 : start;
    lineAt(buffer, from, end > from && buffer[end - 1] === 13 ? end - 1 : end, line, each);
    return true;
  });
}

/**
 * Each line of the file as buffer[start, end) (its LF left out; the last line may have none),
 * with its 1-based number and the file offset it starts at, until `each` returns false. The
 * buffer is reused for the next read. A line of more than `maxLineBytes` is LineTooLong, found
 * before it is handed over (and, if it is longer than the buffer, before all of it is read).
 */
function scanLines(
  path: string,
  onBytes: (n: number) => void,
  maxLineBytes: number,
  each: (buffer: Buffer, start: number, end: number, line: number, offset: number) => boolean,
): void {
  const fd = fs.openSync(path, "r");
  try {
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let have = 0; // bytes of a line not yet ended, at the buffer's start
    let line = 0;
    let offset = 0; // of the buffer's first byte in the file
    for (;;) {
      if (have > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes);
      if (have === buffer.length) {
        // One line longer than the buffer: room for the rest of it.
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, have);
        buffer = bigger;
      }
      const n = fs.readSync(fd, buffer, have, buffer.length - have, null);
      onBytes(n);
      const end = have + n;
      if (n === 0) {
        if (end > 0) {
          const stop = buffer[end - 1] === 13 ? end - 1 : end;
          if (stop > maxLineBytes) throw new LineTooLong(line + 1, maxLineBytes);
          each(buffer, 0, end, line + 1, offset);
        }
        return;
      }
      let start = 0;
      for (let nl = buffer.indexOf(10, have); nl >= 0 && nl < end; nl = buffer.indexOf(10, start)) {
        line++;
        if (nl - start > maxLineBytes) throw new LineTooLong(line, maxLineBytes);
        if (!each(buffer, start, nl, line, offset + start)) return;
        start = nl + 1;
        if (start >= end) break;
      }
      buffer.copy(buffer, 0, start, end);
      offset += start;
      have = end - start;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Hands buffer[start, stop) to `each` as text unless it is blank (as forEachLine tells blank),
 * with whether its bytes are valid UTF-8: decoding replaces every invalid byte by U+FFFD, so only
 * a line holding one is checked (a valid line may hold U+FFFD itself).
 */
function lineAt(buffer: Buffer, start: number, stop: number, line: number, each: LineHandler): void {
  if (stop <= start) return;
  const firstByte = buffer[start]!;
  const text = buffer.toString("utf8", start, stop);
  // A printable ASCII character first (a JSON line starts with "{"): not blank, no trim needed.
  if ((firstByte > 32 && firstByte < 127) || text.trim() !== "") {
    each(text, line, !text.includes("\uFFFD") || isUtf8(buffer.subarray(start, stop)));
  }
}

/** One line: its text, its 1-based number, and whether its bytes were valid UTF-8 (else the text has U+FFFD for them). */
export type LineHandler = (text: string, line: number, validUtf8: boolean) => void;

/** Non-blank lines (LF or CRLF) with their 1-based line numbers, handed to `each` in order. */
export function forEachLine(chunks: Iterable<string>, each: (text: string, line: number) => void): void {
  let carry = "";
  let line = 0;
  for (const chunk of chunks) {
    const text = carry === "" ? chunk : carry + chunk;
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      line++;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (!blank(text, start, end)) each(text.slice(start, end), line);
      start = nl + 1;
    }
    carry = text.slice(start);
  }
  if (carry !== "") {
    line++;
    const text = carry.endsWith("\r") ? carry.slice(0, -1) : carry;
    if (text.trim() !== "") each(text, line);
  }
}

/** Whether text[start, end) is empty or white space only (as String.prototype.trim sees it). */
function blank(text: string, start: number, end: number): boolean {
  if (end <= start) return true;
  const first = text.charCodeAt(start);
  // A printable ASCII character first (a JSON line starts with "{"): not blank, no slice needed.
  if (first > 32 && first < 127) return false;
  return text.slice(start, end).trim() === "";
}
