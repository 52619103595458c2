// Issue #13 item 7: the Dockerfile cannot be built here (no registry), so this checks what can be:
// the image's entry command and healthcheck work against a copy of what the image ships (dist/,
// templates/, package.json, the example as /project; nothing from the source tree), and the image
// runs as a non-root user with its data on a volume.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "./support/server.js";

const dockerfile = readFileSync(join(REPO_ROOT, "Dockerfile"), "utf8");

/** The JSON-array form of an instruction of the final stage (`ENTRYPOINT ["node", ...]`). */
function execForm(instruction: string): string[] {
  const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const match = new RegExp(`^${instruction}\\s+(?:--\\S+\\s+)*(?:\\\\\\n\\s*)?(?:CMD\\s+)?(\\[.*\\])\\s*$`, "m").exec(finalStage);
  if (match === null) throw new Error(`no exec-form ${instruction} in the Dockerfile's final stage`);
  return JSON.parse(match[1]!) as string[];
}

describe("the Docker image", () => {
  const root = tempDir("strand-image-");
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(root, { recursive: true, force: true });
  });

  it("runs as the node user with /data as a volume and port 6969 exposed", () => {
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(finalStage).toMatch(/^USER node$/m);
    expect(finalStage).toMatch(/^VOLUME \/data$/m);
    expect(finalStage).toMatch(/^EXPOSE 6969$/m);
    expect(execForm("CMD")).toEqual(["serve", "/project", "--host", "0.0.0.0", "--port", "6969", "--data", "/data"]);
  });

  it("serves the example with its entry command and passes its healthcheck", async () => {
    // The image's /app, /project and /data, under a temp root.
    const app = join(root, "app");
    mkdirSync(app);
    for (const part of ["dist", "templates", "package.json"]) cpSync(join(REPO_ROOT, part), join(app, part), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules"), join(app, "node_modules"));
    cpSync(join(REPO_ROOT, "examples/social"), join(root, "project"), { recursive: true });
    const mapPath = (arg: string): string => (arg.startsWith("/app/") || arg === "/project" || arg === "/data" ? join(root, arg) : arg);
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const command = [...execForm("ENTRYPOINT"), ...execForm("CMD")].map(mapPath).map((a) => (a === "6969" ? port : a));
    expect(command[0]).toBe("node");
    child = spawn(process.execPath, command.slice(1), { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 50_000;
    while (!output.includes("strand listening on") && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toContain(`strand listening on http://0.0.0.0:${port} (22 queries`);
    const check = execForm("HEALTHCHECK").map((a) => a.replace("6969", port));
    const result = spawnSync(process.execPath, check.slice(1), { encoding: "utf8" });
    expect(result.status).toBe(0);
  }, 60_000);
});
