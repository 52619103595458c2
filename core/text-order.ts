// The one code point order for strings: labels, field names and String values sort by it everywhere
// (SchemaInfo, codegen, comparisons), so every layer agrees on what "sorted" means.

/** A UTF-16 code unit remapped so that code units compare in code point order (surrogates last). */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Strings by Unicode code point (JS relational operators compare UTF-16 code units instead),
 * without allocating: the one code point comparator (label order in SchemaInfo and codegen too).
 */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
