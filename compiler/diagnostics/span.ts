// Where in the source text a diagnostic (and every AST node) points.

export interface Position {
  /** 0-based character offset into the file. */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

export interface Span {
  file: string;
  start: Position;
  end: Position;
}
