// A small RFC 4180 reader: fields separated by commas, rows by CRLF or LF; a field in double
// quotes may hold commas, line breaks and doubled quotes (""). Whether a field was quoted is kept:
// an empty unquoted field means "no value", a quoted empty one ("") the empty string
// (csv-records.ts). Works over text chunks, so a quoted field may span chunk boundaries.

export interface CsvRow {
  readonly cells: string[];
  readonly quoted: boolean[];
  /** The 1-based line the row starts on. */
  readonly line: number;
}

/** A CSV syntax error (a stray quote, a quoted field never closed), at a 1-based line. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** The rows of the text; blank lines (no characters at all) are skipped. */
export function* csvRows(chunks: Iterable<string>): Generator<CsvRow> {
  let cells: string[] = [];
  let quoted: boolean[] = [];
  let field = "";
  let fieldQuoted = false;
  let inQuotes = false;
  let afterQuote = false; // a quote seen inside quotes: the end of the field, or the first of ""
  let line = 1;
  let rowLine = 1;
  let rowStarted = false;
  let pendingCr = false;

  const endField = () => {
    cells.push(field);
    quoted.push(fieldQuoted);
    field = "";
    fieldQuoted = false;
  };
  const endRow = (): CsvRow | null => {
    endField();
    const row = rowStarted || cells.length > 1 || cells[0] !== "" || quoted[0] ? { cells, quoted, line: rowLine } : null;
    cells = [];
    quoted = [];
    rowStarted = false;
    return row;
  };

  for (const chunk of chunks) {
    let plainStart = -1; // start of a run of ordinary characters in this chunk, copied at once
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (pendingCr) {
        pendingCr = false;
        if (c === LF) continue; // CRLF: the row already ended at the CR
      }
      if (inQuotes) {
        if (afterQuote) {
          afterQuote = false;
          if (c === QUOTE) {
            field += '"';
            continue;
          }
          inQuotes = false; // the closing quote; c is handled below as outside quotes
        } else if (c === QUOTE) {
          if (plainStart >= 0) field += chunk.slice(plainStart, i);
          plainStart = -1;
          afterQuote = true;
          continue;
        } else {
          if (c === LF) line++;
          if (plainStart < 0) plainStart = i;
          continue;
        }
      }
      if (plainStart >= 0) {
        field += chunk.slice(plainStart, i);
        plainStart = -1;
      }
      if (c === COMMA) {
        rowStarted = true;
        endField();
      } else if (c === LF || c === CR) {
        const row = endRow();
        if (row !== null) yield row;
        line++;
        rowLine = line;
        pendingCr = c === CR;
      } else if (c === QUOTE) {
        if (field !== "" || fieldQuoted)
          throw new CsvSyntaxError(line, "a quote inside an unquoted field (quote the whole field and double the quote)");
        inQuotes = true;
        fieldQuoted = true;
        rowStarted = true;
      } else {
        if (fieldQuoted) throw new CsvSyntaxError(line, "characters after the closing quote of a field");
        rowStarted = true;
        plainStart = i;
        // copy the run of ordinary characters in one slice
        let j = i + 1;
        while (j < chunk.length) {
          const d = chunk.charCodeAt(j);
          if (d === COMMA || d === LF || d === CR || d === QUOTE) break;
          j++;
        }
        field += chunk.slice(i, j);
        plainStart = -1;
        i = j - 1;
      }
    }
    if (plainStart >= 0) field += chunk.slice(plainStart);
  }
  if (inQuotes && !afterQuote) throw new CsvSyntaxError(rowLine, "a quoted field is never closed");
  const row = endRow();
  if (row !== null) yield row;
}
