// Query bodies are JSON: `application/json` with any parameters as long as a declared charset is
// UTF-8. Everything else is 415, a missing Content-Type too: a browser page of another origin can
// send a form, text/plain or a bare body without a CORS preflight, but not application/json.
import { echo } from "../../core/echo.js";
import { StrandError } from "../../core/errors.js";

const PLAIN = "application/json";

export function checkJsonContentType(header: string | null | undefined): void {
  if (header === PLAIN) return;
  if (header === null || header === undefined || header === "") {
    throw new StrandError("UNSUPPORTED_MEDIA_TYPE", "missing Content-Type: send the parameters with Content-Type: application/json");
  }
  if (!isJsonContentType(header)) {
    throw new StrandError("UNSUPPORTED_MEDIA_TYPE", `unsupported content type "${echo(header)}": send the parameters as application/json`);
  }
}

export function isJsonContentType(header: string): boolean {
  const parts = header.split(";");
  if (parts[0]!.trim().toLowerCase() !== PLAIN) return false;
  for (let k = 1; k < parts.length; k++) {
    const part = parts[k]!;
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const charset = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
      .toLowerCase();
    if (charset !== "utf-8" && charset !== "utf8") return false;
  }
  return true;
}
