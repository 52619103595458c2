// `mkdir -p` that always ends. Node's recursive mkdirSync never returns for a path under a
// directory that refuses new entries without saying why: under /proc it loops on ENOENT at 100%
// CPU, deaf to SIGTERM (`strand serve --data /proc/x/d` hung so). Made one level at a time, each
// plain mkdirSync throws its error instead.
import fs from "node:fs";
import path from "node:path";

/** Makes `dir` and its missing parents; throws the first directory's error that cannot be made. */
export function makeDirs(dir: string): void {
  const target = path.resolve(dir);
  const missing: string[] = [];
  for (let p = target; !fs.existsSync(p); p = path.dirname(p)) missing.push(p);
  // A file where the directory should be: mkdirSync's own EEXIST, as the recursive form gave.
  if (missing.length === 0 && !fs.statSync(target).isDirectory()) fs.mkdirSync(target);
  for (const p of missing.reverse()) {
    try {
      fs.mkdirSync(p);
    } catch (error) {
      // Made meanwhile by another process starting on the same path (racing starts): it exists,
      // which is all this asks; its lock then decides who holds it.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !fs.statSync(p).isDirectory()) throw error;
    }
  }
}
