// Reads the annotations of the compile-only HelixQL corpus (test/corpus/; format described in
// test/corpus.test.ts). Annotations are ordinary `//` comments, so every corpus file is also a
// plain .hx file that `strand check` reads as is.

export interface Expectation {
  code: string;
  line: number;
  column: number;
}

export interface CorpusCase {
  title: string;
  /** 1-based line of the case's `// case:` header */
  line: number;
  /**
   * The file's prelude and this case only; every other case's lines are blank, so positions
   * in diagnostics are positions in the file.
   */
  text: string;
  expect: Expectation;
  bm25: boolean;
}

const CARET = /^\/\/( *)\^+ +([EW]\d{3})\s*$/;
const AT_END = /^\/\/ expect ([EW]\d{3}) at end of file\s*$/;
const CASE = /^\/\/ case: (.+)$/;
const OPTIONS = /^\/\/ options: (.+)$/;

/**
 * Caret annotations: `//    ^ E110` says a diagnostic with that code starts on the line directly
 * above, at the column of the caret.
 */
export function caretAnnotations(text: string): Expectation[] {
  const out: Expectation[] = [];
  text.split("\n").forEach((raw, i) => {
    const m = CARET.exec(raw.trimEnd());
    if (m === null) return;
    if (i === 0) throw new Error(`a caret annotation on line 1 has no line above it`);
    out.push({ code: m[2]!, line: i, column: 3 + m[1]!.length });
  });
  return out;
}

/** Splits an invalid-corpus file into its prelude (shared schema) and independently checkable cases. */
export function parseInvalidFile(text: string, file: string): { prelude: string; cases: CorpusCase[] } {
  const lines = text.split("\n");
  const starts = lines.flatMap((l, i) => (CASE.test(l) ? [i] : []));
  if (starts.length === 0) throw new Error(`${file}: no '// case:' lines`);
  const prelude = lines.slice(0, starts[0]);
  const cases = starts.map((start, n) => {
    const end = starts[n + 1] ?? lines.length;
    const own = lines.slice(start, end);
    const blank = new Array<string>(start - prelude.length).fill("");
    const caseText = [...prelude, ...blank, ...own].join("\n");
    const where = `${file}:${start + 1}`;
    return {
      title: CASE.exec(lines[start]!)![1]!.trim(),
      line: start + 1,
      text: caseText,
      expect: expectationOf(caseText, start, where),
      bm25: optionsOf(own, where).bm25,
    };
  });
  return { prelude: prelude.join("\n"), cases };
}

function expectationOf(caseText: string, start: number, where: string): Expectation {
  const own = caretAnnotations(caseText).filter((e) => e.line > start);
  const atEnd = caseText.split("\n").flatMap((l) => {
    const m = AT_END.exec(l);
    return m === null ? [] : [m[1]!];
  });
  if (own.length + atEnd.length !== 1)
    throw new Error(`${where}: a case needs exactly one expectation, found ${own.length + atEnd.length}`);
  if (own.length === 1) return own[0]!;
  // The position of the end of the text, the way the compiler counts lines and columns.
  const lines = caseText.split("\n");
  return { code: atEnd[0]!, line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

function optionsOf(lines: readonly string[], where: string): { bm25: boolean } {
  let bm25 = true;
  for (const l of lines) {
    const m = OPTIONS.exec(l);
    if (m === null) continue;
    for (const option of m[1]!.trim().split(/\s+/)) {
      if (option === "bm25=false") bm25 = false;
      else throw new Error(`${where}: unknown option '${option}'`);
    }
  }
  return { bm25 };
}
