// `strand keys add|list|remove --file FILE`: the keys file a server reads with --keys-file
// (server/access/keys-file.ts). `add` makes a random key, appends its digest with a name and a
// role, and prints the key once: the file never holds a key itself. A server watching the file
// takes the change without a restart. The file is created readable by its owner only.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Role } from "../../server/access/key-ring.js";
import { keysFileLine, newKey, parseKeysFile } from "../../server/access/keys-file.js";
import { displayPath } from "../project/sources.js";

export type KeysOptions =
  | { action: "add"; file: string; name: string; role: Role; tenant?: string }
  | { action: "list"; file: string }
  | { action: "remove"; file: string; name: string };

const HEADER = "# strand keys: <name> <role> sha256:<digest of the key>; roles: read, write, admin\n";

export function runKeys(options: KeysOptions): number {
  try {
    return keys(options);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === undefined) throw error;
    // A directory given as the file, no permission, a full disk: the user's to fix, said in one line.
    process.stderr.write(`strand: cannot use ${displayPath(options.file)} as the keys file: ${message}\n`);
    return 1;
  }
}

function keys(options: KeysOptions): number {
  const fail = (message: string): number => {
    process.stderr.write(`strand: ${message}\n`);
    return 1;
  };
  const exists = existsSync(options.file);
  const text = exists ? readFileSync(options.file, "utf8") : "";
  const parsed = parseKeysFile(text);
  if (!parsed.ok) return fail(`${displayPath(options.file)}: ${parsed.problem}`);
  switch (options.action) {
    case "list":
      if (!exists) return fail(`${displayPath(options.file)} does not exist (strand keys add creates it)`);
      for (const entry of parsed.entries)
        process.stdout.write(`${entry.name}\t${entry.role}${entry.tenant === undefined ? "" : `\ttenant=${entry.tenant}`}\n`);
      return 0;
    case "add": {
      if (parsed.entries.some((e) => e.name === options.name))
        return fail(`${displayPath(options.file)} has a key named "${options.name}" already`);
      const key = newKey();
      const before = exists ? text : HEADER;
      replaceFile(
        options.file,
        `${before}${before === "" || before.endsWith("\n") ? "" : "\n"}${keysFileLine(options.name, options.role, key, options.tenant)}\n`,
      );
      process.stdout.write(`${key}\n`);
      const scope = options.tenant === undefined ? "" : ` for the tenant "${options.tenant}"`;
      process.stderr.write(
        `strand: added the ${options.role} key "${options.name}"${scope} to ${displayPath(options.file)}; the key is printed once, above\n`,
      );
      return 0;
    }
    case "remove": {
      if (!parsed.entries.some((e) => e.name === options.name))
        return fail(`${displayPath(options.file)} has no key named "${options.name}"`);
      const kept = text.split(/(?<=\n)/).filter((line) => line.trim().split(/\s+/)[0] !== options.name || line.trim().startsWith("#"));
      replaceFile(options.file, kept.join(""));
      process.stderr.write(`strand: removed the key "${options.name}" from ${displayPath(options.file)}\n`);
      return 0;
    }
  }
}

/** Writes beside and renames over: a server reading the file sees the old or the new, never half. */
function replaceFile(file: string, text: string): void {
  const partial = `${file}.partial-${process.pid}`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, file);
}
