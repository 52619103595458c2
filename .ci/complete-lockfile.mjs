#!/usr/bin/env node
// The npm registry this project is built against does not serve every platform's build of some
// optional native packages (rollup's, msgpackr-extract's), so `npm install` leaves them out of
// package-lock.json, and `npm ci` then refuses the lockfile as out of sync. This adds a lock
// entry for each such optional dependency, marked optional and restricted to the platform its
// name says, so `npm ci` accepts the lockfile and skips it on every other platform.
// Run after changing dependencies: `npm install && node .ci/complete-lockfile.mjs`.
import fs from "node:fs";

const LOCK = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(LOCK, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "openbsd", "openharmony", "win32", "sunos", "netbsd", "aix"];
const CPU = { arm64: "arm64", arm: "arm", x64: "x64", ia32: "ia32", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x" };

function platformOf(name) {
  const tokens = name.split("/").pop().split("-");
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.map((t) => CPU[t]).find((c) => c !== undefined);
  const libc = tokens.includes("musl") || tokens.includes("musleabihf") ? "musl" : tokens.includes("gnu") || tokens.includes("gnueabihf") ? "glibc" : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const hoisted = `node_modules/${dep}`;
    const nested = `${path}/node_modules/${dep}`;
    if (packages[hoisted] !== undefined || packages[nested] !== undefined) continue;
    if (!/^\d+\.\d+\.\d+$/.test(spec)) continue; // only exact pins can be recorded without the registry
    const { os, cpu, libc } = platformOf(dep);
    if (os === undefined || cpu === undefined) continue;
    const record = { version: spec, optional: true };
    if (entry.dev === true) record.dev = true;
    record.os = [os];
    record.cpu = [cpu];
    if (libc !== undefined) record.libc = [libc];
    packages[hoisted] = record;
    added++;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(LOCK, JSON.stringify(lock, null, 2) + "\n");
console.log(`complete-lockfile: added ${added} platform-specific optional entr${added === 1 ? "y" : "ies"}`);
