// Reading an input file synchronously, in chunks (an import runs inside one synchronous write
// transaction, so it cannot await a stream): text chunks decoded as UTF-8, and JSON Lines.
import fs from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK_BYTES = 1 << 20;

/** The file's text in chunks; `onBytes` hears how many bytes each chunk took. */
export function* fileChunks(path: string, onBytes: (n: number) => void = () => {}): Generator<string> {
  const fd = fs.openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new StringDecoder("utf8");
    let first = true;
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      let text = decoder.write(buffer.subarray(0, n));
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark
      first = false;
      onBytes(n);
      if (text !== "") yield text;
    }
    const rest = decoder.end();
    if (rest !== "") yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

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
