// Text → terms for BM25, the same function for documents and queries.
//
// A term is a maximal run of letters and digits of any script (\p{L}, \p{N}), which may also
// contain combining marks (\p{M}) after its first character; everything else separates terms.
// Text is NFKC-normalised first, so "Café" typed with a precomposed é or with e + U+0301 (and
// full-width "ＡＢＣ１２" vs "ABC12") give the same terms, then lower-cased, with the Greek final
// sigma ς folded to σ as Unicode case folding does ("ΛΌΓΟΣ" lower-cases to "λόγος", which must
// match a query typed "λόγοσ" and vice versa). There are no stop words and no stemming unless
// the English stemmer is chosen. Scripts written without spaces (Chinese, Japanese, Thai) are
// not segmented: a run of such characters is one term.
import { porterStem } from "./stemmer.js";

export type Stemmer = "none" | "english";
export const STEMMERS: readonly Stemmer[] = ["none", "english"];

export type Tokenizer = (text: string) => string[];

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const FINAL_SIGMA = /ς/g;
const ASCII_WORD = /^[a-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_TERM = /[a-z0-9]+/g;

export function tokenize(text: string): string[] {
  // ASCII text (most of it, and what bulk indexing spends its time on) gives the same terms by a
  // cheaper road: NFKC leaves it as it is, it has no sigma, and its only letters and digits are
  // A-Z, a-z and 0-9, with no combining marks.
  if (ASCII.test(text)) return text.toLowerCase().match(ASCII_TERM) ?? [];
  return text.normalize("NFKC").toLowerCase().replace(FINAL_SIGMA, "σ").match(WORD) ?? [];
}

/** English stemming applies to plain a-z words only; other terms pass through unchanged. */
function tokenizeStemmed(text: string): string[] {
  const terms = tokenize(text);
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (ASCII_WORD.test(t)) terms[i] = porterStem(t);
  }
  return terms;
}

export function createTokenizer(stemmer: Stemmer): Tokenizer {
  return stemmer === "english" ? tokenizeStemmed : tokenize;
}
