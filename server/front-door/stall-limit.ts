// The stall limit's bounds, apart from health.ts so the command line can check `--stall-limit`
// and strand.toml without loading the server.

/** /health is 503 ENGINE_STALLED once the engine has not answered a heartbeat for longer than this, by default. */
export const DEFAULT_STALL_LIMIT_MS = 30_000;
/** The largest stall limit taken (a day: past that, a stalled engine is simply down). */
export const MAX_STALL_LIMIT_MS = 86_400_000;
