// forEachFileLine (runtime/data/lines.ts, what strand import reads JSON Lines with) finds exactly
// the lines, with the same numbers, that forEachLine over the decoded chunks finds: LF and CRLF,
// blank and white-space lines skipped but counted, a byte order mark, no final newline,
// multi-byte characters across the 1 MiB read boundary, and lines longer than the buffer.
import fs from "node:fs";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { fileChunks, firstLineNotUtf8, forEachFileLine, forEachLine, LineTooLong, MAX_LINE_BYTES } from "../runtime/data/lines.js";
import { removeDir, tempDir } from "./support/store-fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

function both(text: string): { fast: [string, number][]; chunked: [string, number][]; bytes: number } {
  const dir = tempDir("strand-lines-");
  dirs.push(dir);
  const file = path.join(dir, "in.jsonl");
  fs.writeFileSync(file, text);
  const fast: [string, number][] = [];
  let bytes = 0;
  forEachFileLine(
    file,
    (n) => {
      bytes += n;
    },
    (t, line) => fast.push([t, line]),
  );
  const chunked: [string, number][] = [];
  forEachLine(fileChunks(file), (t, line) => chunked.push([t, line]));
  return { fast, chunked, bytes };
}

test("small input: CRLF, blank lines, a byte order mark, no final newline", () => {
  const { fast, chunked } = both('\uFEFF{"a":1}\r\n\n   \r\n{"b":"é€😀"}\n \t{"c":2}\n{"d":3}');
  expect(fast).toEqual([
    ['{"a":1}', 1],
    ['{"b":"é€😀"}', 4],
    [' \t{"c":2}', 5],
    ['{"d":3}', 6],
  ]);
  expect(chunked).toEqual(fast);
});

test("large input: characters across the read boundary, a line longer than the buffer, every byte counted", () => {
  const lines: string[] = [];
  // 3-byte characters shifted so one straddles the 1 MiB boundary.
  for (let i = 0; i < 5; i++) lines.push(`${"x".repeat(i)}${"€".repeat(120_000)}`);
  lines.push("", `{"long":"${"😀".repeat(700_000)}"}`, "\r", "last");
  const text = `${lines.join("\n")}\r\n`;
  const { fast, chunked, bytes } = both(text);
  expect(bytes).toBe(Buffer.byteLength(text));
  expect(fast.map(([, n]) => n)).toEqual([1, 2, 3, 4, 5, 7, 9]);
  expect(fast).toEqual(chunked);
  expect(fast[5]![0]).toBe(lines[6]);
});

test("a line longer than the reader takes is refused with its number, before it is read as a string", () => {
  // V8's longest string; the import's limit (a smaller one here, so the test writes little).
  expect(MAX_LINE_BYTES).toBe(0x1fffffe8);
  const dir = tempDir("strand-lines-");
  dirs.push(dir);
  const file = path.join(dir, "in.jsonl");
  for (const [text, line] of [
    [`{"a":1}\n{"b":"${"x".repeat(3_000_000)}"}\n{"c":3}\n`, 2], // grows the buffer past the limit
    [`{"a":1}\n{"b":"${"x".repeat(200)}"}\n{"c":3}\n`, 2], // ends within one read, past the limit
    [`{"a":1}\n{"b":"${"x".repeat(200)}"}`, 2], // the last line, without a newline
  ] as const) {
    fs.writeFileSync(file, text);
    const seen: number[] = [];
    let error: unknown = null;
    try {
      forEachFileLine(
        file,
        () => {},
        (_, n) => seen.push(n),
        100,
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LineTooLong);
    expect({ line: (error as LineTooLong).line, message: (error as Error).message, seen }).toEqual({
      line,
      message: "line: longer than 100 bytes, the most one line may hold",
      seen: [1],
    });
  }
});

test("firstLineNotUtf8 names the first line holding bytes that are no UTF-8, and where it starts, past the first read too", () => {
  const dir = tempDir("strand-lines-");
  dirs.push(dir);
  const file = path.join(dir, "in.csv");
  const long = `${"é".repeat(700_000)}\n`; // 1.4 MB: the bad line comes after the first 1 MiB read
  fs.writeFileSync(file, Buffer.concat([Buffer.from(`a,b\n${long}ok\r\n`), Buffer.from([0x78, 0xc3, 0x28, 0x0a]), Buffer.from("z\n")]));
  expect(firstLineNotUtf8(file)).toEqual({ line: 4, offset: 4 + Buffer.byteLength(long) + 4 });
  fs.writeFileSync(file, `a,b\n${long}\u{1F600}\n`);
  expect(firstLineNotUtf8(file)).toBeNull();
  fs.writeFileSync(file, Buffer.from([0x61, 0x0a, 0xed, 0xa0, 0x80])); // a surrogate's encoding, no final newline
  expect(firstLineNotUtf8(file)).toEqual({ line: 2, offset: 2 });
});
