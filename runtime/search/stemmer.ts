// The English stemmer of M. F. Porter, "An algorithm for suffix stripping" (1980), written from
// the published description: five steps of suffix rules, each guarded by the stem's measure m
// (the number of vowel-consonant sequences). Input: a lower-case word of the letters a-z.
// Step 2 follows the paper (abli → able; no logi rule).

function isConsonant(w: string, i: number): boolean {
  switch (w[i]) {
    case "a":
    case "e":
    case "i":
    case "o":
    case "u":
      return false;
    case "y":
      // y is a consonant at the start of a word and after a vowel, a vowel after a consonant.
      return i === 0 || !isConsonant(w, i - 1);
    default:
      return true;
  }
}

/** m in [C](VC)^m[V]. */
function measure(w: string): number {
  const len = w.length;
  let i = 0;
  while (i < len && isConsonant(w, i)) i++;
  let m = 0;
  while (i < len) {
    while (i < len && !isConsonant(w, i)) i++;
    if (i >= len) break;
    while (i < len && isConsonant(w, i)) i++;
    m++;
  }
  return m;
}

function hasVowel(w: string): boolean {
  for (let i = 0; i < w.length; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || !isConsonant(w, n - 3) || isConsonant(w, n - 2) || !isConsonant(w, n - 1)) return false;
  const last = w[n - 1];
  return last !== "w" && last !== "x" && last !== "y";
}

type Rule = readonly [suffix: string, replacement: string];

/** Rules sorted longest suffix first: only the longest matching suffix is considered. */
const byLength = (rules: Rule[]): readonly Rule[] => rules.sort((a, b) => b[0].length - a[0].length);

const STEP2 = byLength([
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["abli", "able"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
]);

const STEP3 = byLength([
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
]);

const STEP4 = byLength(
  [
    "al",
    "ance",
    "ence",
    "er",
    "ic",
    "able",
    "ible",
    "ant",
    "ement",
    "ment",
    "ent",
    "ion",
    "ou",
    "ism",
    "ate",
    "iti",
    "ous",
    "ive",
    "ize",
  ].map((s): Rule => [s, ""]),
);

/** Applies the longest matching rule when its stem satisfies `ok`; otherwise w unchanged. */
function applyRules(w: string, rules: readonly Rule[], ok: (stem: string, suffix: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, w.length - suffix.length);
    return ok(stem, suffix) ? stem + replacement : w;
  }
  return w;
}

function step1a(w: string): string {
  if (w.endsWith("sses") || w.endsWith("ies")) return w.slice(0, -2);
  if (w.endsWith("ss")) return w;
  if (w.endsWith("s")) return w.slice(0, -1);
  return w;
}

function step1b(w: string): string {
  if (w.endsWith("eed")) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  let stem: string;
  if (w.endsWith("ed")) stem = w.slice(0, -2);
  else if (w.endsWith("ing")) stem = w.slice(0, -3);
  else return w;
  if (!hasVowel(stem)) return w;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

function step1c(w: string): string {
  return w.endsWith("y") && hasVowel(w.slice(0, -1)) ? `${w.slice(0, -1)}i` : w;
}

function step5(w: string): string {
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  let w = step1c(step1b(step1a(word)));
  w = applyRules(w, STEP2, (stem) => measure(stem) > 0);
  w = applyRules(w, STEP3, (stem) => measure(stem) > 0);
  w = applyRules(w, STEP4, (stem, suffix) => measure(stem) > 1 && (suffix !== "ion" || /[st]$/.test(stem)));
  return step5(w);
}
