// The BM25 tokenizer (Unicode words, NFKC, lower case) and the optional English (Porter) stemmer.
import { describe, expect, test } from "vitest";
import { porterStem } from "../runtime/search/stemmer.js";
import { createTokenizer, tokenize } from "../runtime/search/tokenizer.js";

describe("tokenize", () => {
  test("lower-cases and splits on everything that is not a letter, digit or inner mark", () => {
    expect(tokenize("Hello, World! state-of-the-art don't  x2 3.14")).toEqual([
      "hello",
      "world",
      "state",
      "of",
      "the",
      "art",
      "don",
      "t",
      "x2",
      "3",
      "14",
    ]);
    expect(tokenize("")).toEqual([]);
    expect(tokenize("  -- !!! …  ")).toEqual([]);
    expect(tokenize("snake_case/path\\to:thing")).toEqual(["snake", "case", "path", "to", "thing"]);
  });

  test("accented Latin: precomposed and decomposed spellings give the same term", () => {
    expect(tokenize("Café naïve")).toEqual(["café", "naïve"]);
    expect(tokenize("Cafe\u0301 nai\u0308ve")).toEqual(["café", "naïve"]);
    expect(tokenize("CAFÉ")).toEqual(["café"]);
  });

  test("other scripts: Cyrillic, Greek, Devanagari (marks inside words), Han and CJK digits", () => {
    expect(tokenize("Привет, МИР!")).toEqual(["привет", "мир"]);
    // Final sigma is folded: "ΛΌΓΟΣ" and "λόγος" are one term.
    expect(tokenize("Σοφία και ΛΌΓΟΣ λόγος")).toEqual(["σοφία", "και", "λόγοσ", "λόγοσ"]);
    expect(tokenize("हिन्दी भाषा")).toEqual(["हिन्दी", "भाषा"]);
    // NFKC turns full-width digits into ASCII; Han runs are not segmented; 〇 is a number.
    expect(tokenize("第３章、二〇二四年 ４２")).toEqual(["第3章", "二〇二四年", "42"]);
    expect(tokenize("東京 tokyo")).toEqual(["東京", "tokyo"]);
  });

  test("ASCII text (its own, cheaper road) gives exactly the terms of the general definition", () => {
    // The definition in the module's header, applied the long way.
    const general = (text: string) =>
      text
        .normalize("NFKC")
        .toLowerCase()
        .replace(/ς/g, "σ")
        .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 500; n++) {
      const text = String.fromCharCode(...Array.from({ length: next() % 40 }, () => next() % 128));
      expect(tokenize(text)).toEqual(general(text));
    }
    expect(tokenize("ÀB ab")).toEqual(["àb", "ab"]); // one non-ASCII character: the general road
  });

  test("a combining mark cannot start a term", () => {
    expect(tokenize("\u0301abc \u0308")).toEqual(["abc"]);
  });

  test("the English tokenizer stems a-z words only", () => {
    const english = createTokenizer("english");
    expect(english("Running connections, happily CONNECTED; naïve cafés")).toEqual([
      "run",
      "connect",
      "happili",
      "connect",
      "naïve",
      "cafés",
    ]);
    expect(createTokenizer("none")("Running")).toEqual(["running"]);
  });
});

describe("porterStem", () => {
  test.each([
    ["caresses", "caress"],
    ["ponies", "poni"],
    ["ties", "ti"],
    ["caress", "caress"],
    ["cats", "cat"],
    ["feed", "feed"],
    ["agreed", "agre"],
    ["plastered", "plaster"],
    ["bled", "bled"],
    ["motoring", "motor"],
    ["sing", "sing"],
    ["conflated", "conflat"],
    ["troubled", "troubl"],
    ["sized", "size"],
    ["hopping", "hop"],
    ["tanned", "tan"],
    ["falling", "fall"],
    ["hissing", "hiss"],
    ["fizzed", "fizz"],
    ["failing", "fail"],
    ["filing", "file"],
    ["happy", "happi"],
    ["sky", "sky"],
    ["relational", "relat"],
    ["conditional", "condit"],
    ["rational", "ration"],
    ["generalization", "gener"],
    ["running", "run"],
    ["connection", "connect"],
    ["adjustment", "adjust"],
    ["replacement", "replac"],
    ["adoption", "adopt"],
    ["effective", "effect"],
    ["controlling", "control"],
    ["roll", "roll"],
    ["electrical", "electr"],
    ["hopeful", "hope"],
    ["goodness", "good"],
    ["allowance", "allow"],
    ["probate", "probat"],
    ["rate", "rate"],
    ["cease", "ceas"],
    ["triplicate", "triplic"],
    ["formative", "form"],
    ["formalize", "formal"],
    ["as", "as"],
    ["is", "is"],
  ])("%s → %s", (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
});
