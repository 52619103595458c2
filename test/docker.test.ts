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

  it("builds and runs on one exact Node LTS release, the same in both stages", () => {
    const from = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    const arg = "$" + "{NODE_IMAGE}"; // the ARG, as the Dockerfile writes it
    expect(from).toEqual([arg, arg]);
    const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(image).not.toBeNull();
    // Even majors are Node's LTS lines; 20 reached end of life on 2026-04-30.
    const major = Number(image![1]);
    expect({ even: major % 2 === 0, supported: major >= 22 }).toEqual({ even: true, supported: true });
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
    // Port 0: the kernel picks a free one, read back from the listening line.
    const command = [...execForm("ENTRYPOINT"), ...execForm("CMD")].map(mapPath).map((a) => (a === "6969" ? "0" : a));
    expect(command[0]).toBe("node");
    const started = spawn(process.execPath, command.slice(1), { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    // Waits for the listening line (or the process's end), not for a time.
    const output = await new Promise<string>((done) => {
      let text = "";
      const seen = (d: Buffer): void => {
        text += d.toString();
        if (/strand listening on \S+ \(/.test(text)) done(text);
      };
      started.stdout!.on("data", seen);
      started.stderr!.on("data", seen);
      started.once("exit", () => done(text));
    });
    const port = /strand listening on http:\/\/0\.0\.0\.0:(\d+) \(22 queries/.exec(output)?.[1];
    expect(port, output).toBeDefined();
    const check = execForm("HEALTHCHECK").map((a) => a.replace("6969", port!));
    const result = spawnSync(process.execPath, check.slice(1), { encoding: "utf8" });
    expect(result.status).toBe(0);
  }, 60_000);
});
