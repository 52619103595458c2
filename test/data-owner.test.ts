// A data directory belongs to one project: the default is the project's own (<dir>/data), and
// another project given the same directory is refused in one line naming both. A project that
// moved or was renamed adopts its data. `strand mcp --stdio` with stdin closed opens and closes.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "./support/server.js";

describe("the data directory's project", () => {
  it("defaults to the project's own, refuses another project's, and follows a moved project", () => {
    const work = tempDir("strand-data-owner-");
    const strand = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: "utf8", input: "" });
    expect(strand(["init", "p1"]).status).toBe(0);
    expect(strand(["init", "p2"]).status).toBe(0);

    const first = strand(["mcp", "--stdio", "p1"]);
    expect({ status: first.status, stderr: first.stderr }).toEqual({
      status: 0,
      stderr: "strand: MCP over stdio (19 tools, data in p1/data)\n",
    });
    expect(existsSync(join(work, "p1", "data", "data.mdb"))).toBe(true);
    expect(JSON.parse(readFileSync(join(work, "p1", "data", "strand-project.json"), "utf8"))).toEqual({ project: join(work, "p1") });

    const other = strand(["mcp", "--stdio", "p2", "--data", "p1/data"]);
    expect({ status: other.status, stderr: other.stderr }).toEqual({
      status: 1,
      stderr:
        "strand: the data directory p1/data belongs to the project p1, not p2; give this one its own with --data (default: p2/data)\n",
    });
    // STRAND_DATA is the same as --data.
    const fromEnv = spawnSync(process.execPath, [CLI, "mcp", "--stdio", "p2"], {
      cwd: work,
      encoding: "utf8",
      input: "",
      env: { ...process.env, STRAND_DATA: join(work, "p1", "data") },
    });
    expect(fromEnv.status).toBe(1);
    expect(existsSync(join(work, "p2", "data"))).toBe(false);

    // Moved: the data moved with it (inside the project) and is adopted under the new path.
    renameSync(join(work, "p1"), join(work, "moved"));
    const moved = strand(["mcp", "--stdio", "moved"]);
    expect({ status: moved.status, stderr: moved.stderr }).toEqual({
      status: 0,
      stderr: "strand: MCP over stdio (19 tools, data in moved/data)\n",
    });
    expect(JSON.parse(readFileSync(join(work, "moved", "data", "strand-project.json"), "utf8"))).toEqual({ project: join(work, "moved") });
    // The project it belonged to is gone (renamed): another path given the data adopts it.
    renameSync(join(work, "moved"), join(work, "renamed"));
    const renamed = strand(["mcp", "--stdio", "renamed", "--data", "renamed/data"]);
    expect(renamed.status).toBe(0);
    expect(strand(["mcp", "--stdio", "p2", "--data", "renamed/data"]).stderr).toBe(
      "strand: the data directory renamed/data belongs to the project renamed, not p2; give this one its own with --data (default: p2/data)\n",
    );
  });
});
