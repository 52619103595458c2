// Which thread serves HTTP. "engine" (the default): the engine's own thread, with the front-door
// thread standing by while one request holds the engine (standby.ts); about half the CPU of a
// cheap request, but a probe that the engine accepted just before something held it waits for it
// (/health p99 up to ~90 ms in bench/health-stall, and the standby takes 25 ms to take over).
// "thread": every request crosses from the front-door thread and back, which keeps /health within
// ~20 ms whatever holds the engine, at about twice the CPU of a point read.
export const FRONT_DOORS = ["engine", "thread"] as const;

export type FrontDoor = (typeof FRONT_DOORS)[number];
