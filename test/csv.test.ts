// The RFC 4180 reader of strand import (runtime/data/csv.ts).
import { expect, test } from "vitest";
import { CsvSyntaxError, csvRows } from "../runtime/data/csv.js";

function rows(...chunks: string[]) {
  return [...csvRows(chunks)].map((r) => ({ cells: r.cells, quoted: r.quoted, line: r.line }));
}

test("plain fields, LF and CRLF row ends, a final row without a line end", () => {
  expect(rows("a,b\r\n1,2\n3,\n")).toEqual([
    { cells: ["a", "b"], quoted: [false, false], line: 1 },
    { cells: ["1", "2"], quoted: [false, false], line: 2 },
    { cells: ["3", ""], quoted: [false, false], line: 3 },
  ]);
  expect(rows("x\ny")).toEqual([
    { cells: ["x"], quoted: [false], line: 1 },
    { cells: ["y"], quoted: [false], line: 2 },
  ]);
});

test("quotes: commas, escaped quotes, line breaks (LF and CRLF) inside, and the empty quoted field", () => {
  expect(rows('"a,b","say ""hi""","two\nlines","crlf\r\nin",""\r\nnext,1\r\n')).toEqual([
    { cells: ["a,b", 'say "hi"', "two\nlines", "crlf\r\nin", ""], quoted: [true, true, true, true, true], line: 1 },
    { cells: ["next", "1"], quoted: [false, false], line: 4 },
  ]);
});

test("a field, an escaped quote and a CRLF split across chunks read the same", () => {
  const text = 'id,name\r\n1,"Zed ""Z"", Jr"\r\n2,"multi\nline"\r\n';
  const whole = rows(text);
  for (let cut = 1; cut < text.length; cut++) expect(rows(text.slice(0, cut), text.slice(cut))).toEqual(whole);
  expect(whole[1]).toEqual({ cells: ["1", 'Zed "Z", Jr'], quoted: [false, true], line: 2 });
  expect(whole[2]!.line).toBe(3);
});

test("blank lines are skipped; a line of one empty quoted field is a row", () => {
  expect(rows('a\n\n\r\nb\n""\n')).toEqual([
    { cells: ["a"], quoted: [false], line: 1 },
    { cells: ["b"], quoted: [false], line: 4 },
    { cells: [""], quoted: [true], line: 5 },
  ]);
});

test("syntax errors name their line", () => {
  const error = (text: string) => {
    try {
      rows(text);
    } catch (e) {
      if (e instanceof CsvSyntaxError) return `${e.line}: ${e.message}`;
      throw e;
    }
    throw new Error("expected a CsvSyntaxError");
  };
  expect(error('a,b\nx,y"z\n')).toBe("2: a quote inside an unquoted field (quote the whole field and double the quote)");
  expect(error('a\n"ab"c\n')).toBe("2: characters after the closing quote of a field");
  expect(error('a\n\n"open\nstill open')).toBe("3: a quoted field is never closed");
});
