// What a data directory may hold besides the store that is derived from elsewhere and made again
// when missing: the compile cache `strand serve` keeps there (cli/project/compile-cache.ts). A
// restore goes into a directory that holds only such entries as into an empty one: `strand serve`
// on a directory a killed restore left writes its cache before it refuses to open what it finds,
// and the restore it then recommends must not be refused for that. The project a directory
// belongs to (cli/project/data-owner.ts) is kept there too, and is adopted when missing.
export const COMPILE_CACHE_DIR = "compile-cache";
export const OWNER_FILE = "strand-project.json";

export const DERIVED_ENTRIES: ReadonlySet<string> = new Set([COMPILE_CACHE_DIR, OWNER_FILE]);
