// Default values of the command line, in one place (and free of heavy imports, so that usage
// errors and --help answer without loading the compiler).
export const DEFAULT_RUNTIME_IMPORT = "strand/runtime";
export const DEFAULT_OUT_DIR = "generated";
export const DEFAULT_PORT = 6969;
/** Local only by default; pass --host 0.0.0.0 to listen on every interface. */
export const DEFAULT_SERVE_HOST = "127.0.0.1";
export const DEFAULT_DATA_DIR = "data";
/** `strand memory`'s data directory when neither --data nor STRAND_DATA names one (the working directory's). */
export const DEFAULT_MEMORY_DATA_DIR = "memory-data";
