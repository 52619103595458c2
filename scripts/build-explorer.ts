// Builds the explorer page into dist/explorer: type-checks explorer/ (browser code, its own
// tsconfig), bundles explorer/src/main.ts with Cytoscape.js into one app.js (esbuild; nothing is
// fetched from a CDN at run time), and copies index.html and style.css beside it.
// Run by `npm run build` after tsc.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const source = join(repo, "explorer");
const out = join(repo, "dist/explorer");

execFileSync(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", join(source, "tsconfig.json")], { stdio: "inherit" });
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(source, "src/main.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
});
for (const file of ["index.html", "style.css"]) copyFileSync(join(source, file), join(out, file));
