// SQLite as the bench's peers open it (counts.ts, data.ts, sqlite-server.ts): better-sqlite3,
// loaded when a comparison runs (`npm ci` leaves it out: package.json benchDependencies, installed
// by scripts/bench-peers.mjs, which `npm run bench` runs first), in WAL mode with synchronous=FULL
// so a commit is on disk when it returns, as Strand's is.
import type { Database } from "better-sqlite3";

/** better-sqlite3's Database class, or an error saying how to install it. */
async function loadSqlite(): Promise<typeof import("better-sqlite3").default> {
  try {
    return (await import("better-sqlite3")).default;
  } catch (error) {
    throw new Error(
      `the SQLite comparison needs better-sqlite3, which npm ci leaves out: run \`node scripts/bench-peers.mjs\` (npm run bench does) (${(error as Error).message})`,
    );
  }
}

/** The database at `path`, durable at every commit (WAL, synchronous=FULL). */
export async function openDurableSqlite(path: string): Promise<Database> {
  const SqliteDatabase = await loadSqlite();
  const db = new SqliteDatabase(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  return db;
}
