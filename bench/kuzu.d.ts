// The part of kuzu's Node API that bench/data.ts uses (a bench-only dependency; see package.json benchDependencies).
declare module "kuzu" {
  export class Database {
    constructor(path: string);
    close(): Promise<void>;
  }
  export class Connection {
    constructor(database: Database);
    query(statement: string): Promise<unknown>;
    close(): Promise<void>;
  }
  const kuzu: { Database: typeof Database; Connection: typeof Connection };
  export default kuzu;
}
