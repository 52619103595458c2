// Strand's native module (native/strand_native.cc), what Node does not expose: V8's low-memory
// collection and glibc's malloc_trim (tenants/release-memory.ts), and duplicating a descriptor
// (front-door/standby.ts). `npm ci` builds it; it calls V8's C++ API, so after a Node upgrade
// `npm rebuild` does. Loaded once per thread; a process without it still serves, and each user
// says what it does without.
import { constants } from "node:os";
import { join } from "node:path";
import { strandPackage } from "../observe/build-info.js";

export interface NativeModule {
  lowMemoryNotification(): void;
  /** Absent elsewhere than glibc. */
  mallocTrim?: () => boolean;
  /** A new descriptor (close-on-exec) of what `fd` refers to; throws the system's reason. */
  duplicate(fd: number): number;
}

/** The native module, or why it does not load. */
export type StrandNative = { native: NativeModule } | { missing: string };

let loaded: StrandNative | null = null;

/** build/Release/strand_native.node under Strand's package folder (binding.gyp). */
export function strandNative(): StrandNative {
  if (loaded !== null) return loaded;
  const root = strandPackage()?.dir;
  if (root === undefined) {
    loaded = { missing: "Strand's package.json was not found" };
    return loaded;
  }
  const file = join(root, "build", "Release", "strand_native.node");
  try {
    // RTLD_NOW: a V8 function this Node lacks fails the load here, not the first call (which
    // would end the process with a symbol lookup error).
    const module = { exports: {} as NativeModule };
    process.dlopen(module, file, constants.dlopen.RTLD_NOW);
    loaded = { native: module.exports };
  } catch (error) {
    const why = (error as Error).message.split("\n")[0];
    loaded = { missing: `${file} does not load (${why}); npm ci builds it, and npm rebuild after a Node upgrade` };
  }
  return loaded;
}
