// The kinds of value a setting takes, each read two ways with the same bounds: from a flag (or its
// environment variable), where a bad value is a FlagError naming the flag (a usage error, exit 2), and from
// strand.toml, where it is an error naming `file: key` collected by the reader (exit 1).
import { resolve } from "node:path";
import type { TomlValue } from "smol-toml";
import { leaderUrl } from "../../runtime/replication/leader-fetch.js";
import { BYTE_SIZE_FORM, parseByteSize } from "./byte-size.js";
import { checkEndpoints, checkGroupName, parseEndpoints } from "./cluster-values.js";
import type { ConfigReader } from "./config-reader.js";

/** A flag's value refused, naming the flag (the command line turns it into a usage error). */
export class FlagError extends Error {}

export interface KnobValue<T> {
  /** A flag's text (never empty) as the value; throws FlagError naming the flag. */
  fromFlag(text: string, flag: string): T;
  /** The key of a strand.toml table; undefined when absent or refused (the reader collects why). */
  fromFile(table: ConfigReader<TomlValue>, key: string): T | undefined;
}

function fileOnly(kind: string): KnobValue<never>["fromFile"] {
  return () => {
    throw new Error(`a ${kind} setting has no strand.toml key`);
  };
}

export function integer(min: number, max: number): KnobValue<number> {
  return {
    fromFlag: (text, flag) => {
      const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max)
        throw new FlagError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
      return n;
    },
    fromFile: (table, key) => table.optionalInteger(key, min, max),
  };
}

/** Bytes, or a size such as "8MiB" (byte-size.ts). */
export function bytes(min: number, max = Number.MAX_SAFE_INTEGER): KnobValue<number> {
  return {
    fromFlag: (text, flag) => {
      const n = parseByteSize(text);
      if (n === null || n < min) throw new FlagError(`${flag} takes ${BYTE_SIZE_FORM}, at least ${min}; got "${text}"`);
      return n;
    },
    fromFile: (table, key) => table.optionalByteSize(key, min, max),
  };
}

/** Any text (a key, a host name). */
export const text: KnobValue<string> = { fromFlag: (t) => t, fromFile: fileOnly("text") };

/** A path, made absolute against the working directory. */
export const path: KnobValue<string> = { fromFlag: (t) => resolve(t), fromFile: fileOnly("path") };

/** `true` or `false`. */
export const boolean: KnobValue<boolean> = {
  fromFlag: (t, flag) => {
    if (t === "true") return true;
    if (t === "false") return false;
    throw new FlagError(`${flag} must be true or false, got "${t}"`);
  },
  fromFile: (table, key) => table.optionalBoolean(key),
};

export function oneOf<T extends string>(values: readonly T[]): KnobValue<T> {
  return {
    fromFlag: (t, flag) => {
      const found = values.find((v) => v === t);
      if (found === undefined) throw new FlagError(`${flag} must be one of ${values.join(", ")}, got "${t}"`);
      return found;
    },
    fromFile: fileOnly("choice"),
  };
}

/** A node's http(s) URL, normalised (leader-fetch.ts leaderUrl); `what` says whose, in the message. */
export function nodeUrl(what: string): KnobValue<string> {
  return {
    fromFlag: (t, flag) => {
      const url = leaderUrl(t);
      if (url === null) throw new FlagError(`${flag} must be ${what}, got "${t}"`);
      return url;
    },
    fromFile: fileOnly("URL"),
  };
}

/** etcd endpoints: comma-separated http(s) URLs. */
export const endpoints: KnobValue<string[]> = {
  fromFlag: (t, flag) => {
    const list = parseEndpoints(t);
    if (list === null)
      throw new FlagError(`${flag} takes etcd endpoints as comma-separated http(s) URLs (http://10.0.0.1:2379,…), got "${t}"`);
    return list;
  },
  fromFile: (table, key) => {
    const written = table.optionalString(key, checkEndpoints);
    return written === undefined ? undefined : (parseEndpoints(written) ?? undefined);
  },
};

/** A failover group's name (the etcd keys /strand/<group>/...). */
export const groupName: KnobValue<string> = {
  fromFlag: (t, flag) => {
    const problem = checkGroupName(t);
    if (problem !== null) throw new FlagError(`${flag}: ${problem}`);
    return t;
  },
  fromFile: (table, key) => table.optionalString(key, checkGroupName),
};

/** Browser origins (`https://app.example:8443`, or `*`), comma-separated. */
export const origins: KnobValue<string[]> = {
  fromFlag: (t, flag) => {
    const list = t.split(",").map((o) => o.trim());
    for (const origin of list) {
      if (origin === "*") continue;
      let url: URL | undefined;
      try {
        url = new URL(origin);
      } catch {
        url = undefined;
      }
      if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin.replace(/\/$/, "")) {
        throw new FlagError(
          `${flag} takes comma-separated origins like https://app.example:8443 (scheme, host, optional port) or *, got "${origin}"`,
        );
      }
    }
    return list;
  },
  fromFile: fileOnly("origins"),
};
