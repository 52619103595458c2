// A call's result as a value: what it returned, or the StrandError that stopped it (an expected
// outcome: bad input, a missing name). Anything else thrown is a bug and propagates.
import { isStrandError, type StrandError } from "./errors.js";

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: StrandError };

export async function outcomeOf<T>(fn: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    if (isStrandError(error)) return { ok: false, error };
    throw error;
  }
}
