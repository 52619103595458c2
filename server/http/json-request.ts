// The body of a JSON request as a value, read the one way every JSON endpoint reads it
// (POST /<Query>, /mcp/<tool>, /explorer/api/*): the media type first, before any byte of the
// body is read (content-type.ts), then the body within the size limit (read-body.ts), then JSON
// with the position of a syntax error (json-body.ts).
import type { Context } from "hono";
import { checkJsonContentType } from "./content-type.js";
import { parseJsonBody } from "./json-body.js";
import { readBody } from "./read-body.js";
import { incomingOf, requestHeader } from "./request-header.js";

export async function jsonRequestBody(c: Context, limitBytes: number): Promise<unknown> {
  const incoming = incomingOf(c);
  checkJsonContentType(requestHeader(c, incoming, "content-type"));
  return parseJsonBody(await readBody(c.req.raw, incoming, limitBytes));
}
