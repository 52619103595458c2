// The keys `strand serve` checks (server/access/key-ring.ts): the api key (admin; --api-key, or the
// first line of --api-key-file), the read key (--read-key), and the keys file (--keys-file), which
// is read at start and again whenever it changes or the process gets SIGHUP. A reload that fails
// keeps the keys the server had and says why; a start that cannot read them does not start.
import { readFileSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import { type KeyRing, fixedKeyRing } from "../../server/access/key-ring.js";
import { parseKeysFile } from "../../server/access/keys-file.js";
import { isLoopbackAddress } from "../../server/server.js";
import type { Settings } from "../config/settings.js";
import { displayPath } from "../project/sources.js";

export interface ServedKeys {
  ring: KeyRing;
  /** Whether the server's clients need a key (a replica of it must then have keys too). */
  keyed: boolean;
  /** Watches the keys file (if any) until the returned function is called. */
  watch(say: (line: string) => void): () => void;
}

/** The server's keys; null after printing why they cannot be used. */
export function servedKeys(server: Settings["server"], say: (line: string) => void): ServedKeys | null {
  const apiKey = apiKeyOf(server);
  if (apiKey === null) return null;
  const readKey = server.readKey;
  if (!isLoopbackAddress(server.host)) {
    for (const [flag, key] of [
      ["api key", apiKey],
      ["read key", readKey],
    ] as const) {
      const weak = key === undefined ? null : weakKeyProblem(key);
      if (weak !== null) {
        say(`strand: refusing to listen on ${server.host} with this ${flag}: ${weak}`);
        return null;
      }
    }
  }
  const file = server.keysFile;
  const ring = fixedKeyRing({ apiKey, readKey }, file !== undefined);
  if (file !== undefined) {
    const loaded = loadKeysFile(file, ring);
    if (loaded !== null) {
      say(`strand: the keys file ${displayPath(file)} cannot be used: ${loaded}`);
      return null;
    }
    if (ring.size === 0)
      say(
        `strand: warning: the keys file ${displayPath(file)} holds no key and no other key is given: every request but /health is refused (401) until one is added`,
      );
  }
  return {
    ring,
    keyed: ring.keyed,
    watch: (sayLine) => (file === undefined ? ignoreHangup(sayLine) : watchKeysFile(file, ring, sayLine)),
  };
}

/** Without a keys file SIGHUP has nothing to reload; it must not end the server (Node's default). */
function ignoreHangup(say: (line: string) => void): () => void {
  const onHangup = (): void => say("strand: SIGHUP: no keys file to reload (--keys-file); ignored");
  process.on("SIGHUP", onHangup);
  return () => process.off("SIGHUP", onHangup);
}

/** Reads `file` into the ring; the problem when it cannot (the ring is then unchanged). */
function loadKeysFile(file: string, ring: KeyRing): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return (error as Error).message;
  }
  const parsed = parseKeysFile(text);
  if (!parsed.ok) return parsed.problem;
  ring.replaceLoaded(parsed.entries);
  return null;
}

/**
 * Reloads on a change to the file (watching its directory: editors replace a file by renaming
 * another over it, which a watch on the file itself stops seeing) and on SIGHUP.
 */
function watchKeysFile(file: string, ring: KeyRing, say: (line: string) => void): () => void {
  const name = basename(file);
  let pending: NodeJS.Timeout | null = null;
  const reload = (why: string): void => {
    const problem = loadKeysFile(file, ring);
    const counts = ring.counts();
    const held = `${ring.size} keys (read ${counts.read}, write ${counts.write}, admin ${counts.admin})`;
    if (problem === null) say(`strand: keys reloaded from ${displayPath(file)} (${why}): ${held}`);
    else say(`strand: keys not reloaded from ${displayPath(file)} (${why}): ${problem}; keeping ${held}`);
  };
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dirname(file), (_event, changed) => {
      if (changed !== null && changed !== name) return;
      // One save is several events (truncate, write, rename): read once they have settled.
      if (pending !== null) clearTimeout(pending);
      pending = setTimeout(() => {
        pending = null;
        reload("changed");
      }, 100);
    });
    watcher.on("error", (error) => say(`strand: stopped watching ${displayPath(file)}: ${error.message}; SIGHUP still reloads it`));
  } catch (error) {
    say(`strand: cannot watch ${displayPath(file)}: ${(error as Error).message}; SIGHUP reloads it`);
  }
  const onHangup = (): void => reload("SIGHUP");
  process.on("SIGHUP", onHangup);
  return () => {
    watcher?.close();
    if (pending !== null) clearTimeout(pending);
    process.off("SIGHUP", onHangup);
  };
}

/** The api key, given or read from its file; null after printing why the file cannot be used. */
function apiKeyOf(server: Settings["server"]): string | undefined | null {
  return server.apiKeyFile === undefined ? server.apiKey : readApiKeyFile(server.apiKeyFile);
}

/** Keys that are placeholders, not secrets (compose files and docs have carried some of them). */
const PLACEHOLDER_KEYS = new Set([
  "change-me",
  "changeme",
  "change_me",
  "password",
  "secret",
  "admin",
  "apikey",
  "api-key",
  "strand",
  "test",
  "key",
]);
/** Shorter keys are guessable from afar (they are compared in constant time, but not rate-limited). */
const MIN_REMOTE_KEY_LENGTH = 16;

/** Why a key must not guard a server reachable beyond this machine, or null. */
export function weakKeyProblem(key: string): string | null {
  if (PLACEHOLDER_KEYS.has(key.toLowerCase()))
    return `"${key}" is a placeholder, not a secret; set a key of at least ${MIN_REMOTE_KEY_LENGTH} random characters (e.g. openssl rand -hex 32)`;
  if (key.length < MIN_REMOTE_KEY_LENGTH)
    return `it has ${key.length} characters; beyond loopback a key needs at least ${MIN_REMOTE_KEY_LENGTH} (e.g. openssl rand -hex 32)`;
  return null;
}

/** The key in `file` (its first line, trimmed); null after printing why it cannot be used. */
function readApiKeyFile(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    process.stderr.write(`strand: cannot read the api key file ${displayPath(file)}: ${(error as Error).message}\n`);
    return null;
  }
  const key = (text.split(/\r?\n/)[0] ?? "").trim();
  if (key === "") {
    process.stderr.write(`strand: the api key file ${displayPath(file)} is empty (its first line is the key)\n`);
    return null;
  }
  return key;
}
