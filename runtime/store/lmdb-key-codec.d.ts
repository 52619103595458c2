// The part of lmdb's ordered-binary key codec that keys.ts uses: lmdb exports it at run time
// (as keyValueToBuffer / bufferToKeyValue) but its typings leave it out.
import "lmdb";

declare module "lmdb" {
  /** The ordered-binary bytes lmdb's default key encoding writes for `key`. */
  export function keyValueToBuffer(key: Key): Uint8Array;
  /** The key ordered-binary bytes encode (keyValueToBuffer's inverse). */
  export function bufferToKeyValue(bytes: Uint8Array): Key;
}
