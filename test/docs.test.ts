// The on-disk key layout in docs/ARCHITECTURE.md cannot drift from the code: it is rendered from
// runtime/store/key-layout.ts (`npm run docs`), and that table must name every database the store
// opens (runtime/store/keys.ts DB_NAMES), in the order it opens them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DB_NAMES } from "../runtime/store/keys.js";
import { KEY_LAYOUT } from "../runtime/store/key-layout.js";
import { withKeyLayout } from "../scripts/key-layout-doc.js";

const ARCHITECTURE = path.resolve(import.meta.dirname, "../docs/ARCHITECTURE.md");

describe("docs/ARCHITECTURE.md key layout", () => {
  it("lists every database the store opens, in the order it opens them", () => {
    expect([...new Set(KEY_LAYOUT.map((row) => row.db))]).toEqual([...DB_NAMES]);
  });

  it("is rendered from runtime/store/key-layout.ts (run `npm run docs` when this fails)", () => {
    const text = readFileSync(ARCHITECTURE, "utf8");
    expect(withKeyLayout(text), "docs/ARCHITECTURE.md has no key-layout markers").not.toBeNull();
    expect(text).toBe(withKeyLayout(text));
  });
});
