// Echoing what a client sent inside an error message, bounded: a name, an id or a value of any
// size comes back as at most ECHO_LIMIT characters, cut with "..." at the end. Every message
// that repeats user input (connection ids, type, member, tool and query names, rendered values)
// goes through `echo`, so a 100 KB name yields a short message. A leaf module with no imports.

/** The longest echo of user input in a message, ellipsis included. */
export const ECHO_LIMIT = 60;
const ELLIPSIS = "...";

/**
 * `text` itself when it is at most `limit` (default ECHO_LIMIT) characters long, else its start and
 * "...", `limit` characters in all. Only an embedding provider's own error message gets a longer
 * limit (runtime/embed/http.ts): it is the explanation of the failure, not an echo of the request.
 */
export function echo(text: string, limit = ECHO_LIMIT): string {
  if (text.length <= limit) return text;
  let end = limit - ELLIPSIS.length;
  // Never cut a surrogate pair in half.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}
