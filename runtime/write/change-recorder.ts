// Which keys a write transaction changes, for the commit log (runtime/store/commit-log.ts). The
// graph writer and its hooks are handed `recordingDbs`: the same databases, whose putSync and
// removeSync also note (database, key) while a recording is open. At the end of the transaction
// the log entry takes each noted key's value as it now stands (read in the transaction), so what
// is logged is exactly what was written, in whatever encoding the writer chose, each key once.
import type { Database } from "lmdb";
import type { StoreDbs } from "../store/dbs.js";
import type { Key } from "../store/keys.js";
import type { LoggedDbName, LoggedOp } from "../store/commit-log.js";

interface Noted {
  db: LoggedDbName;
  key: Key;
}

export class ChangeRecorder {
  private noted: Map<string, Noted> | null = null;

  /** A write transaction's callback starts. */
  begin(): void {
    this.noted = new Map();
  }

  note(db: LoggedDbName, key: Key): void {
    if (this.noted === null) return; // a write outside a logged transaction (the open's rebuilds)
    this.noted.set(`${db}\u0000${JSON.stringify(key)}`, { db, key });
  }

  /** The callback ends: each noted key with its value now (`dbs` read inside the transaction). */
  take(dbs: StoreDbs): LoggedOp[] {
    const noted = this.noted;
    this.noted = null;
    if (noted === null) return [];
    const ops: LoggedOp[] = [];
    for (const { db, key } of noted.values()) {
      const value: unknown = (dbs[db] as Database<unknown, Key>).get(key);
      ops.push(value === undefined ? [db, key] : [db, key, value]);
    }
    return ops;
  }

  /** The callback failed: nothing of it is logged. */
  discard(): void {
    this.noted = null;
  }
}

const LOGGED_METHODS = new Set<PropertyKey>(["putSync", "removeSync", "put", "remove"]);

/** `dbs` whose databases note every key they are asked to change into `recorder`. */
export function recordingDbs(dbs: StoreDbs, recorder: ChangeRecorder): StoreDbs {
  const wrapped: Record<string, unknown> = { ...dbs };
  for (const name of Object.keys(dbs) as (keyof StoreDbs)[]) {
    if (name === "env" || name === "meta" || name === "commitLog") continue;
    wrapped[name] = recordingDb(dbs[name] as Database<unknown, Key>, name, recorder);
  }
  return wrapped as unknown as StoreDbs;
}

function recordingDb(db: Database<unknown, Key>, name: LoggedDbName, recorder: ChangeRecorder): Database<unknown, Key> {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      const cached = bound.get(prop);
      if (cached !== undefined) return cached;
      const member: unknown = Reflect.get(target, prop, target);
      if (typeof member !== "function") return member;
      const fn = member as (...args: unknown[]) => unknown;
      const call = LOGGED_METHODS.has(prop)
        ? (key: Key, ...rest: unknown[]) => {
            recorder.note(name, key);
            return fn.call(target, key, ...rest);
          }
        : fn.bind(target);
      bound.set(prop, call);
      return call;
    },
  });
}
