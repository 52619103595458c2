// Reading the Prometheus text of GET /metrics in tests.

/** The samples of one metric family, `name{labels} value` lines without the # comments. */
export function samples(text: string, name: string): string[] {
  return text.split("\n").filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
}
