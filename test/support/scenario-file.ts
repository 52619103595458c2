// Reads a scripted scenario file (test/failover-scenarios/*.txt; the commands:
// test/support/failover-world.ts) and rewrites its expected blocks in place (the update mode,
// STRAND_UPDATE_CASES=1). The format, after etcd-io/raft's datadriven test files:
//
//   # the first comment line is the scenario's title; more comments may follow anywhere
//
//   <command line>
//   ----
//   <the exact output, one or more lines, no blank line>
//
// A blank line ends an expected block; a command without `----` expects nothing yet (the update
// mode fills it in). A `# known bug: <what>` comment before a command marks the step where the
// controller does not yet do what its block says; that block and the ones after it state what
// must happen.

export interface ScenarioStep {
  readonly command: string;
  /** The known bug this step shows (its expected block is what must happen), or null. */
  readonly knownBug: string | null;
  /** 1-based line of the command. */
  readonly line: number;
  readonly expected: string;
  /** 0-based [start, end) of the expected lines, or null when the command has no `----` yet. */
  readonly body: { readonly start: number; readonly end: number } | null;
}

export interface ScenarioFile {
  readonly title: string;
  readonly steps: readonly ScenarioStep[];
}

const SEPARATOR = "----";

export function parseScenario(text: string, file: string): ScenarioFile {
  const lines = text.split("\n");
  const steps: ScenarioStep[] = [];
  let title: string | null = null;
  let knownBug: string | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (line.startsWith("#")) {
      const comment = line.replace(/^#\s?/, "");
      title ??= comment;
      const bug = /^known bug:\s*(.+)$/.exec(comment);
      if (bug !== null) knownBug = bug[1]!;
      i++;
      continue;
    }
    if (line === SEPARATOR) throw new Error(`${file}:${i + 1}: '${SEPARATOR}' without a command before it`);
    const command = { command: line.trim(), knownBug, line: i + 1 };
    knownBug = null;
    i++;
    if (lines[i] !== SEPARATOR) {
      steps.push({ ...command, expected: "", body: null });
      continue;
    }
    const start = ++i;
    while (i < lines.length && lines[i]!.trim() !== "") i++;
    steps.push({ ...command, expected: lines.slice(start, i).join("\n"), body: { start, end: i } });
  }
  if (title === null) throw new Error(`${file}: no title (a first '#' line saying what the scenario shows)`);
  if (steps.length === 0) throw new Error(`${file}: no commands`);
  if (knownBug !== null) throw new Error(`${file}: 'known bug' after the last command`);
  return { title, steps };
}

/** The file with every step's expected block replaced by `actual` (one output per step, in order). */
export function withOutputs(text: string, scenario: ScenarioFile, actual: readonly string[]): string {
  const lines = text.split("\n");
  // From the last step back, so earlier line numbers stay valid.
  for (let s = scenario.steps.length - 1; s >= 0; s--) {
    const step = scenario.steps[s]!;
    const output = (actual[s] ?? "").split("\n");
    if (step.body === null) lines.splice(step.line, 0, SEPARATOR, ...output, ...((lines[step.line] ?? "").trim() === "" ? [] : [""]));
    else lines.splice(step.body.start, step.body.end - step.body.start, ...output);
  }
  return lines.join("\n");
}
