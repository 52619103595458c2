// The agent tools load with the first /mcp call, and with them zod (their inputs are described in
// it) and the MCP SDK: a server starts without either (issue 11, startup). Checked on the sources:
// no module that server/server.ts imports when it loads — static imports that are not type-only,
// followed through the repository — imports zod or the SDK; the tools are a dynamic import away.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");
const STATIC = /^\s*(?:import|export)\s+(?!type\s)([^'";]*?)\s*from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm;

/** Whether an import clause names types only (`{ type A, type B }`): TypeScript drops those imports. */
function typesOnly(clause: string): boolean {
  const names = /^\{([^}]*)\}$/.exec(clause.trim())?.[1];
  if (names === undefined) return false;
  const entries = names
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  return entries.length > 0 && entries.every((e) => e.startsWith("type "));
}

/** The packages the modules that `entry` loads (itself included) import, with the file importing each. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(repo, file), "utf8");
    for (const match of text.matchAll(STATIC)) {
      const specifier = match[2] ?? match[3]!;
      if (match[1] !== undefined && typesOnly(match[1])) continue;
      if (!specifier.startsWith(".")) {
        if (!packages.has(specifier)) packages.set(specifier, file);
        continue;
      }
      queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, ".ts"));
    }
  }
  return packages;
}

it("starting a server loads neither zod nor the MCP SDK", () => {
  const loaded = packagesLoadedBy("server/server.ts");
  expect(loaded.has("hono")).toBe(true);
  const heavy = [...loaded].filter(([name]) => /^(zod|@modelcontextprotocol\/)/.test(name)).map(([name, by]) => `${by} imports ${name}`);
  expect(heavy).toEqual([]);
});
