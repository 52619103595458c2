// A namespace (or a prefix of one) as one text, for the ItemPrefix index of the LangGraph store:
// each label as JSON, each followed by U+001F, so two different label lists never give the same
// text (JSON escapes every control character).
export function namespacePath(labels: readonly string[]): string {
  return labels.map((label) => `${JSON.stringify(label)}\u001f`).join("");
}
