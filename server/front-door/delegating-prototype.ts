// The shape the engine's lazy Fetch objects share (lazy-request.ts, answer-response.ts): a
// prototype that inherits from the real class (so `instanceof` holds) and answers each accessor
// and method of it, except the ones the lazy object answers itself, from the real object, built on
// first use.

/**
 * A prototype inheriting from `base` whose getters and methods (all but `constructor`,
 * `Symbol.toStringTag` and `own`) read or call them on `real(this)`.
 */
export function delegatingPrototype<S>(
  base: object,
  own: ReadonlySet<PropertyKey>,
  real: (self: S) => object,
): Record<PropertyKey, unknown> {
  const prototype = Object.create(base) as Record<PropertyKey, unknown>;
  for (const key of Reflect.ownKeys(base)) {
    if (key === "constructor" || key === Symbol.toStringTag || own.has(key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(base, key)!;
    if (descriptor.get !== undefined) {
      Object.defineProperty(prototype, key, {
        get(this: S) {
          return (real(this) as Record<PropertyKey, unknown>)[key];
        },
      });
    } else if (typeof descriptor.value === "function") {
      Object.defineProperty(prototype, key, {
        value(this: S, ...args: unknown[]) {
          const target = real(this) as Record<PropertyKey, (...a: unknown[]) => unknown>;
          return target[key]!(...args);
        },
      });
    }
  }
  return prototype;
}
