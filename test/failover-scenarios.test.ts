// Failover scenarios, scripted and deterministic (after etcd-io/raft's rafttest and its
// datadriven testdata): each file in test/failover-scenarios/ is a story of commands, each
// followed by exactly what the controllers did and the state after it (format:
// test/support/scenario-file.ts; commands: test/support/failover-world.ts). No etcd, no
// network, no real timers: the real-etcd side is test/failover.test.ts.
//
// With STRAND_UPDATE_CASES=1 every expected block is rewritten from what happened instead, for
// review in `git diff` — except from a known bug's step on, which states what must happen.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FailoverWorld } from "./support/failover-world.js";
import { parseScenario, withOutputs } from "./support/scenario-file.js";

const UPDATE = process.env.STRAND_UPDATE_CASES === "1";
const dir = path.join(import.meta.dirname, "failover-scenarios");
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".txt"))
  .sort();

describe("failover scenarios", () => {
  it("has scenarios", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const scenario = parseScenario(text, file);
    const bug = scenario.steps.find((s) => s.knownBug !== null)?.knownBug ?? null;
    it(`${file}: ${scenario.title}${bug === null ? "" : ` (known bug: ${bug})`}`, async () => {
      const world = new FailoverWorld();
      const outputs: string[] = [];
      for (const step of scenario.steps) {
        const output = await world.run(step.command);
        const where = `${file}:${step.line}: ${step.command}`;
        if (step.knownBug !== null) {
          // The bug must still show here; the steps after it tell the intended story, unchecked.
          if (!UPDATE)
            expect(output, `${where}: the known bug no longer shows: remove its line and review from here`).not.toBe(step.expected);
          break;
        }
        outputs.push(output);
        // Later steps depend on earlier ones: the first difference is the one to read.
        if (!UPDATE) expect(output, where).toBe(step.expected);
      }
      if (UPDATE) {
        const kept = scenario.steps.slice(outputs.length).map((s) => s.expected);
        const updated = withOutputs(text, scenario, [...outputs, ...kept]);
        if (updated !== text) fs.writeFileSync(path.join(dir, file), updated);
      }
    });
  }
});
