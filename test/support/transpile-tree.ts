// Crash tests run the store in a child process as plain JS: the runtime sources are transpiled
// (no type check) into node_modules/.cache so the child resolves `lmdb` and friends from this
// checkout.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Transpiles `entry` and everything it imports relatively into `outDir`, mirroring paths. */
export function transpileTree(entry: string, outDir: string): void {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, "utf8");
    const out = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
      fileName: file,
    });
    const target = path.join(outDir, path.relative(root, file)).replace(/\.ts$/, ".js");
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, out.outputText);
    for (const m of source.matchAll(/^(?:import|export)[^;]*?from\s+"(\.[^"]+)\.js";/gms)) {
      queue.push(path.resolve(path.dirname(file), `${m[1]!}.ts`));
    }
  }
}

/** A fresh build directory under node_modules/.cache holding the transpiled store. */
export function buildStore(prefix: string): { buildDir: string; storeModule: string } {
  const cache = path.join(root, "node_modules", ".cache");
  fs.mkdirSync(cache, { recursive: true });
  const buildDir = fs.mkdtempSync(path.join(cache, prefix));
  transpileTree(path.join(root, "runtime/graph-store.ts"), buildDir);
  return { buildDir, storeModule: path.join(buildDir, "runtime/graph-store.js") };
}
