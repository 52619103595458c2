// Saved queries: name, text and parameters, kept in the browser's localStorage (per origin, so
// per server) as one JSON list. Saving under a name already used replaces that entry. Takes the
// storage as a parameter so that it runs without a browser too.

export interface SavedQuery {
  name: string;
  query: string;
  params: string;
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const SAVED_KEY = "strand-explorer-queries";

export class SavedQueries {
  constructor(private readonly storage: KeyValueStore) {}

  /** By name. An unreadable entry (edited by hand, an older format) counts as none. */
  list(): SavedQuery[] {
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.storage.getItem(SAVED_KEY) ?? "[]");
    } catch {
      return [];
    }
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (q): q is SavedQuery =>
          typeof q === "object" && q !== null && typeof q.name === "string" && typeof q.query === "string" && typeof q.params === "string",
      )
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  save(entry: SavedQuery): void {
    this.write([...this.list().filter((q) => q.name !== entry.name), entry]);
  }

  remove(name: string): void {
    this.write(this.list().filter((q) => q.name !== name));
  }

  private write(list: readonly SavedQuery[]): void {
    this.storage.setItem(SAVED_KEY, JSON.stringify(list));
  }
}
