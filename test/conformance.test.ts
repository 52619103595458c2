// Runs every declarative case in test/conformance/ (format: test/conformance/README.md): compile
// the case's HelixQL, serve it in process over a fresh store, send each call, compare the exact JSON.
// With STRAND_UPDATE_CASES=1 (npm run test:update-cases) every expectation that does not hold is
// rewritten in its file from what the engine returned instead, for review in `git diff`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyEdits, parseCaseFile } from "./support/case-file.js";
import { runCase } from "./support/case-runner.js";

const UPDATE = process.env.STRAND_UPDATE_CASES === "1";
const dir = path.join(import.meta.dirname, "conformance");
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".case"))
  .sort();
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "strand-conformance-"));
afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

describe("conformance corpus", () => {
  it("has cases", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    const testCase = parseCaseFile(text, file);
    it(`${file}: ${testCase.title}`, async () => {
      const checks = await runCase(testCase, file, fs.mkdtempSync(path.join(tmpRoot, "db-")));
      const failed = checks.filter((c) => c.mismatch !== null);
      if (UPDATE) {
        if (failed.length > 0)
          fs.writeFileSync(
            path.join(dir, file),
            applyEdits(
              text,
              failed.map((c) => c.edit),
            ),
          );
        return;
      }
      // Later calls depend on earlier ones: the first failure is the one to read.
      const first = failed[0];
      if (first !== undefined) expect(first.actual, `${first.where}: ${first.mismatch}`).toEqual(first.expected);
    });
  }
});
