// Which thread serves HTTP. "thread" (the default): a front-door thread owns the sockets and every
// request crosses to the engine and back, which keeps /health within ~20 ms p99 whatever holds the
// engine. "engine": the engine's own thread serves HTTP, with the front-door thread standing by
// while one request holds it (standby.ts): about 1.6x less CPU for a cheap request at one
// connection, but a probe the engine accepted just before something held it waits for it
// (bench/health-stall: /health p99 up to ~90 ms, once ~1 s during an ingest; the standby takes
// 25 ms to take over), and one thread saturates sooner than two (32 connections of point reads:
// ~35% fewer a second).
export const FRONT_DOORS = ["engine", "thread"] as const;

export type FrontDoor = (typeof FRONT_DOORS)[number];
