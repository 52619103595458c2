// Whether a path an operator names (an export's --out, a backup's target) lies inside a data
// directory: writing there could overwrite `data.mdb` under a live store (an export to
// DIR/data.mdb truncated it and crashed the server serving it). Symbolic links are followed as
// far as the path exists, so a link into the directory counts as inside.
import fs from "node:fs";
import path from "node:path";

/** The real path of `p`, or of its nearest existing ancestor joined with the rest. */
function realPathSoFar(p: string): string {
  const absolute = path.resolve(p);
  let existing = absolute;
  const rest: string[] = [];
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) return absolute;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  return path.join(fs.realpathSync(existing), ...rest);
}

/** True when `child` is `dir` itself or anything below it. */
export function isInsideDir(child: string, dir: string): boolean {
  const relative = path.relative(realPathSoFar(dir), realPathSoFar(child));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
