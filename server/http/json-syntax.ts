// Locates the first syntax error in a JSON text, so a client learns exactly where its body went
// wrong in a form that does not depend on the JS engine's message wording. Only runs after
// JSON.parse has already failed, so it is never on the hot path.

export interface JsonSyntaxProblem {
  /** 0-based offset in UTF-16 code units. */
  position: number;
  line: number;
  column: number;
  message: string;
}

class Failure {
  constructor(
    readonly position: number,
    readonly message: string,
  ) {}
}

// Deeper nesting is reported as the problem (at the bracket that goes too deep) instead of being
// scanned: two frames per level, so this stays far from the stack's limit in any calling context.
const MAX_DEPTH = 1_000;

class Scanner {
  private i = 0;
  constructor(private readonly text: string) {}

  scan(): Failure | null {
    try {
      this.whitespace();
      this.value(0);
      this.whitespace();
      if (this.i < this.text.length) return new Failure(this.i, `unexpected ${this.describe(this.i)} after the JSON value`);
      return null;
    } catch (e) {
      if (e instanceof Failure) return e;
      // Never let a body crash the error report (a stack already nearly full when called).
      if (e instanceof RangeError) return new Failure(this.i, "nesting too deep");
      throw e;
    }
  }

  private fail(message?: string): never {
    throw new Failure(this.i, message ?? `unexpected ${this.describe(this.i)}`);
  }

  private describe(at: number): string {
    if (at >= this.text.length) return "end of input";
    const code = this.text.charCodeAt(at);
    if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    return `'${String.fromCodePoint(this.text.codePointAt(at)!)}'`;
  }

  private whitespace(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.i++;
      else break;
    }
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail("nesting too deep");
    const c = this.text[this.i];
    if (c === "{") this.object(depth);
    else if (c === "[") this.array(depth);
    else if (c === '"') this.string();
    else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) this.number();
    else if (c === "t") this.literal("true");
    else if (c === "f") this.literal("false");
    else if (c === "n") this.literal("null");
    else this.fail();
  }

  private literal(word: string): void {
    for (let k = 0; k < word.length; k++, this.i++) if (this.text[this.i] !== word[k]) this.fail();
  }

  private object(depth: number): void {
    this.i++;
    this.whitespace();
    if (this.text[this.i] === "}") {
      this.i++;
      return;
    }
    for (;;) {
      if (this.text[this.i] !== '"') this.fail(`unexpected ${this.describe(this.i)}, expected a property name in double quotes`);
      this.string();
      this.whitespace();
      if (this.text[this.i] !== ":") this.fail(`unexpected ${this.describe(this.i)}, expected ':'`);
      this.i++;
      this.whitespace();
      this.value(depth + 1);
      this.whitespace();
      const c = this.text[this.i];
      if (c === ",") {
        this.i++;
        this.whitespace();
      } else if (c === "}") {
        this.i++;
        return;
      } else this.fail(`unexpected ${this.describe(this.i)}, expected ',' or '}'`);
    }
  }

  private array(depth: number): void {
    this.i++;
    this.whitespace();
    if (this.text[this.i] === "]") {
      this.i++;
      return;
    }
    for (;;) {
      this.value(depth + 1);
      this.whitespace();
      const c = this.text[this.i];
      if (c === ",") {
        this.i++;
        this.whitespace();
      } else if (c === "]") {
        this.i++;
        return;
      } else this.fail(`unexpected ${this.describe(this.i)}, expected ',' or ']'`);
    }
  }

  private string(): void {
    const t = this.text;
    this.i++;
    for (;;) {
      if (this.i >= t.length) this.fail("unterminated string");
      const code = t.charCodeAt(this.i);
      if (code === 0x22) {
        this.i++;
        return;
      }
      if (code < 0x20) this.fail(`unexpected ${this.describe(this.i)} in string`);
      if (code === 0x5c) {
        const e = t[this.i + 1];
        if (e === "u") {
          for (let k = 2; k < 6; k++) {
            if (!/[0-9a-fA-F]/.test(t[this.i + k] ?? "")) {
              this.i += k;
              this.fail("invalid \\u escape in string");
            }
          }
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else {
          this.i++;
          this.fail("invalid escape in string");
        }
      } else this.i++;
    }
  }

  private number(): void {
    const t = this.text;
    if (t[this.i] === "-") this.i++;
    if (t[this.i] === "0") this.i++;
    else if (isDigit(t[this.i])) while (isDigit(t[this.i])) this.i++;
    else this.fail(`unexpected ${this.describe(this.i)} in number`);
    if (t[this.i] === ".") {
      this.i++;
      if (!isDigit(t[this.i])) this.fail(`unexpected ${this.describe(this.i)} in number`);
      while (isDigit(t[this.i])) this.i++;
    }
    if (t[this.i] === "e" || t[this.i] === "E") {
      this.i++;
      if (t[this.i] === "+" || t[this.i] === "-") this.i++;
      if (!isDigit(t[this.i])) this.fail(`unexpected ${this.describe(this.i)} in number`);
      while (isDigit(t[this.i])) this.i++;
    }
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** The first syntax error in `text`, or null when it is valid JSON. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | null {
  const failure = new Scanner(text).scan();
  if (failure === null) return null;
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < failure.position && k < text.length; k++) {
    if (text.charCodeAt(k) === 0x0a) {
      line++;
      lineStart = k + 1;
    }
  }
  return { position: failure.position, line, column: failure.position - lineStart + 1, message: failure.message };
}
