// The part of better-sqlite3's API that bench/counts.ts uses (the package ships no type declarations).
declare module "better-sqlite3" {
  export interface Statement {
    run(...params: unknown[]): { changes: number };
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    pluck(on?: boolean): Statement;
  }

  export interface Database {
    exec(sql: string): Database;
    prepare(sql: string): Statement;
    pragma(source: string): unknown;
    transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
    close(): void;
  }

  const Database: new (path: string) => Database;
  export default Database;
}
