// The installed Strand's version, from its package.json (found from dist/cli/ or from cli/).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function strandVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++, dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; bin?: Record<string, unknown> };
    if (pkg.bin?.strand !== undefined && typeof pkg.version === "string") return pkg.version;
  }
  return "unknown";
}
