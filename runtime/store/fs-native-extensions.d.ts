// The part of fs-native-extensions that dir-lock.ts uses (the package ships no type declarations).
declare module "fs-native-extensions" {
  /**
   * Takes a lock on the open file `fd` without waiting (exclusive unless `shared`): an OFD lock
   * (fcntl F_OFD_SETLK) on Linux, flock elsewhere. False when another open file holds it.
   */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  /** Releases the lock on `fd` (closing the file releases it too). */
  export function unlock(fd: number): void;
}
