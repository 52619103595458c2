// Each request's id: the client's `x-request-id` when it is a plausible id, else a new UUID. The
// front door sets it on the response as the request arrives (so every answer to a parsed request
// carries `x-request-id`, /health and the front door's own refusals included) and the request's
// log line carries it as `reqId`, so a client's report, a proxy's log and this server's line can
// be matched. A header that is not one (too long, characters
// outside the set below, or sent twice, which Node joins with ", ") is replaced, not refused:
// the request is served either way, and the id it got is the one in the answer.
import { randomUUID } from "node:crypto";

export const REQUEST_ID_HEADER = "x-request-id";
export const MAX_REQUEST_ID_LENGTH = 128;
/** Letters, digits and - _ . : / + = @ ~ (UUIDs, ULIDs, base64, trace ids), 1 to 128 of them. */
const PLAUSIBLE_ID = /^[A-Za-z0-9\-_.:/+=@~]{1,128}$/;

/** The id a request goes by: `sent` (its x-request-id) when plausible, else a fresh UUID. */
export function requestId(sent: string | string[] | undefined): string {
  return typeof sent === "string" && PLAUSIBLE_ID.test(sent) ? sent : randomUUID();
}
