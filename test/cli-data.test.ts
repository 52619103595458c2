// `strand export` and `strand import` (built dist/cli/strand.js) against a running server:
// export reads a consistent snapshot beside it; import refuses the directory it holds; the
// export then imports into an empty directory that verifies clean.
import { spawn } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { removeDir, tempDir } from "./support/store-fixtures.js";
import { CLI, SOCIAL_EXAMPLE, startStrand } from "./support/server.js";

const work = tempDir("strand-cli-data-");
afterAll(() => removeDir(work));

/** Runs the CLI without blocking the event loop (the server's requests are awaited meanwhile). */
function strand(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: work, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
}

/** The `handle` of every record `strand export` writes for the data directory. */
async function exportedHandles(dataDir: string): Promise<unknown[]> {
  const out = await strand(["export", SOCIAL_EXAMPLE, "--data", dataDir]);
  return out.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line).handle);
}

async function call(url: string, query: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(`${url}/${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as Record<string, { id: string }>;
  return Object.values(json)[0]!;
}

it("exports while a server runs, refuses to import into its directory, and the export imports into an empty one", async () => {
  const server = await startStrand({ dataDir: join(work, "served") });
  let exported: string;
  try {
    const ada = await call(server.url, "AddUser", { handle: "ada", name: "Ada", city: "London", age: 36 });
    const bob = await call(server.url, "AddUser", { handle: "bob", name: "Bob", city: "Paris", age: 41 });
    const follows = await call(server.url, "Follow", { from: ada.id, to: bob.id, weight: 2 });

    const out = await strand(["export", SOCIAL_EXAMPLE, "--data", "served", "--out", "-"]);
    expect(out.status).toBe(0);
    const lines = out.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.kind, l.label, l.id])).toEqual([
      ["N", "User", ada.id],
      ["N", "User", bob.id],
      ["E", "Follows", follows.id],
    ]);
    expect(lines[2]).toMatchObject({ from: ada.id, to: bob.id, weight: 2 });
    expect(out.stderr).toContain("exported 2 nodes, 0 vectors, 1 edges\n");
    exported = out.stdout;
    writeFileSync(join(work, "all.jsonl"), exported);

    const refused = await strand(["import", SOCIAL_EXAMPLE, "--data", "served", "all.jsonl"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`is in use by process ${server.child.pid}; stop that server first`);
  } finally {
    await server.stop();
  }

  const imported = await strand(["import", SOCIAL_EXAMPLE, "--data", "copy", "all.jsonl"]);
  expect({ status: imported.status, stdout: imported.stdout }).toEqual({ status: 0, stdout: "all.jsonl: 3 records imported\n" });
  const verified = await strand(["verify", "copy"]);
  expect(verified.status).toBe(0);
  const again = await strand(["export", SOCIAL_EXAMPLE, "--data", "copy"]);
  expect(again.stdout).toBe(exported);

  // A second import of the same file: every id is taken, so the file is refused whole.
  const twice = await strand(["import", SOCIAL_EXAMPLE, "--data", "copy", "all.jsonl"]);
  expect(twice.status).toBe(1);
  expect(twice.stderr).toContain(
    `all.jsonl:1: id: '${JSON.parse(exported.split("\n")[0]!).id}' is already the id of a User; nothing of this file was imported\n`,
  );

  // Every path is checked before the first file is imported: nothing is committed.
  const user = (handle: string) => `${JSON.stringify({ kind: "N", label: "User", handle, name: handle })}\n`;
  writeFileSync(join(work, "one.jsonl"), user("solo"));
  mkdirSync(join(work, "a-dir"));
  for (const [missing, message] of [
    ["nope.jsonl", "strand: nope.jsonl: no such file; nothing was imported\n"],
    ["a-dir", "strand: a-dir: a directory, not a file to import; nothing was imported\n"],
    ["./one.jsonl", "strand: one.jsonl: the same file as file 1 of the list, given twice; nothing was imported\n"],
  ] as const) {
    const refused = await strand(["import", SOCIAL_EXAMPLE, "--data", "fresh", "one.jsonl", missing]);
    expect(refused).toEqual({ status: 1, stdout: "", stderr: message });
  }
  // A bad record in a later file: the files before it are committed, and the output says which.
  writeFileSync(join(work, "bad.jsonl"), `${user("ok")}{"kind":"N","label":"Nope"}\n`);
  const partly = await strand(["import", SOCIAL_EXAMPLE, "--data", "fresh", "one.jsonl", "bad.jsonl"]);
  // (stderr also has the progress lines of a run without a TTY)
  expect({ ...partly, stderr: partly.stderr.split("\n").filter((line) => line.startsWith("strand:")) }).toEqual({
    status: 1,
    stdout: "one.jsonl: 1 record imported\n",
    stderr: [
      "strand: bad.jsonl:2: label: the schema has no N::Nope; nothing of this file was imported",
      "strand: one.jsonl was imported before it and stays: import only bad.jsonl and the files after it again",
    ],
  });
  // --skip-bad: without --rejects the first record left out is shown; a file of which every record
  // is left out exits 1 (the other files stay imported).
  writeFileSync(join(work, "nope.jsonl"), `{"kind":"N","label":"Nope"}\n{"kind":"N","label":"Nope"}\n`);
  const skipped = await strand(["import", SOCIAL_EXAMPLE, "--data", "skipped", "bad.jsonl", "nope.jsonl", "--skip-bad"]);
  expect({ ...skipped, stderr: skipped.stderr.split("\n").filter((line) => line.startsWith("strand:")) }).toEqual({
    status: 1,
    stdout:
      "bad.jsonl: 1 record imported, 1 rejected (the first, line 2: label: the schema has no N::Nope; --rejects FILE keeps each with its reason)\n" +
      "nope.jsonl: 0 records imported, 2 rejected (the first, line 1: label: the schema has no N::Nope; --rejects FILE keeps each with its reason)\n",
    stderr: ["strand: nope.jsonl: all 2 records were rejected, nothing of it was imported (is it the right file for this schema?)"],
  });
  expect(await exportedHandles("skipped")).toEqual(["ok"]);
  expect(await exportedHandles("fresh")).toEqual(["solo"]);

  const usage = await strand(["import", SOCIAL_EXAMPLE]);
  expect(usage.status).toBe(2);
  expect(usage.stderr).toContain("strand import needs a project directory and at least one file");
}, 120_000);

it("refuses a rejects file inside the data directory or that is one of the inputs, before reading or writing anything", async () => {
  const line = `${JSON.stringify({ kind: "N", label: "User", handle: "kept", name: "K", city: "Oslo", age: 30 })}\n{"kind":"N","label":"Nope"}\n`;
  writeFileSync(join(work, "in.jsonl"), line);
  expect((await strand(["import", SOCIAL_EXAMPLE, "--data", "rj", "in.jsonl", "--skip-bad"])).status).toBe(0);
  linkSync(join(work, "in.jsonl"), join(work, "in-link.jsonl"));
  const cases: [string, string][] = [
    ["rj/data.mdb", "inside the data directory rj; write the rejects to a file outside it"],
    ["rj/rejects.jsonl", "inside the data directory rj; write the rejects to a file outside it"],
    ["in.jsonl", "the same file as the input in.jsonl; write the rejects to another file"],
    ["in-link.jsonl", "the same file as the input in.jsonl; write the rejects to another file"],
  ];
  for (const [rejects, why] of cases) {
    const refused = await strand(["import", SOCIAL_EXAMPLE, "--data", "rj", "in.jsonl", "--skip-bad", "--rejects", rejects]);
    expect(refused).toEqual({ status: 1, stdout: "", stderr: `strand: --rejects ${rejects}: ${why}; nothing was imported\n` });
  }
  expect(readFileSync(join(work, "in.jsonl"), "utf8")).toBe(line);
  expect((await strand(["verify", "rj"])).status).toBe(0);
  expect(await exportedHandles("rj")).toEqual(["kept"]);
}, 60_000);

it("refuses to export into the data directory (DIR/data.mdb is the store), and stops quietly when the reader of stdout goes away", async () => {
  const users = Array.from({ length: 20_000 }, (_, i) =>
    JSON.stringify({ kind: "N", label: "User", handle: `u${i}`, name: `user ${i}`, city: "Oslo", age: 30 }),
  );
  writeFileSync(join(work, "users.jsonl"), `${users.join("\n")}\n`);
  expect((await strand(["import", SOCIAL_EXAMPLE, "--data", "piped", "users.jsonl"])).status).toBe(0);

  for (const out of ["piped/data.mdb", "piped/sub/x.jsonl"]) {
    const refused = await strand(["export", SOCIAL_EXAMPLE, "--data", "piped", "--out", out]);
    expect(refused).toEqual({
      status: 1,
      stdout: "",
      stderr: `strand: ${out} is inside the data directory piped; export to a file outside it\n`,
    });
  }
  const verified = await strand(["verify", "piped"]);
  expect(verified.status).toBe(0);

  // An export is written under a partial name and renamed once whole: killed, it leaves no
  // file under the asked name (a shorter one imported as if complete); SIGTERM removes the rest.
  let killedPid = 0;
  // SIGKILL last: an export removes what an earlier killed one left (below).
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    const child = spawn(process.execPath, [CLI, "export", SOCIAL_EXAMPLE, "--data", "piped", "--out", "killed.jsonl"], {
      cwd: work,
      stdio: "ignore",
    });
    const partial = join(work, `killed.jsonl.partial-${child.pid}`);
    if (signal === "SIGKILL") killedPid = child.pid!;
    while (!existsSync(partial)) await new Promise((r) => setTimeout(r, 2));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on("exit", (code, sig) => resolve(sig ?? code)));
    child.kill(signal);
    expect([signal, await exited]).toEqual([signal, signal === "SIGKILL" ? "SIGKILL" : 143]);
    expect([signal, existsSync(join(work, "killed.jsonl")), existsSync(partial)]).toEqual([signal, false, signal === "SIGKILL"]);
  }
  // The next export to that name removes what the killed one left.
  const again = await strand(["export", SOCIAL_EXAMPLE, "--data", "piped", "--out", "killed.jsonl"]);
  expect([again.status, again.stderr.split("\n").filter((l) => l.startsWith("strand:"))]).toEqual([
    0,
    [`strand: removed killed.jsonl.partial-${killedPid}, left by an interrupted earlier run`],
  ]);
  expect(readdirSync(work).filter((name) => name.startsWith("killed.jsonl"))).toEqual(["killed.jsonl"]);
  const whole = await strand(["export", SOCIAL_EXAMPLE, "--data", "piped", "--out", "whole.jsonl"]);
  expect(whole.status).toBe(0);
  expect(readFileSync(join(work, "whole.jsonl"), "utf8").split("\n").length).toBe(20_001);
  expect(readdirSync(work).filter((name) => name.startsWith("whole.jsonl"))).toEqual(["whole.jsonl"]);

  // `strand export | head -c 1000`: the reader closes the pipe after its first bytes.
  const cut = await new Promise<{ status: number | null; stderr: string; got: number }>((resolve) => {
    const child = spawn(process.execPath, [CLI, "export", SOCIAL_EXAMPLE, "--data", "piped"], {
      cwd: work,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let got = 0;
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdout.once("data", (chunk: Buffer) => {
      got = chunk.length;
      child.stdout.destroy();
    });
    child.on("exit", (status) => resolve({ status, stderr, got }));
  });
  expect(cut.got).toBeGreaterThan(0);
  expect({
    status: cut.status,
    failure: cut.stderr.split("\n").filter((line) => line.startsWith("strand:") || line.includes("Error")),
  }).toEqual({
    status: 141,
    failure: [],
  });
}, 120_000);
