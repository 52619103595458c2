// The one way StrandSaver and StrandStore talk to a server: a JSON POST under
// `<url>/memory/langgraph/`, answered with JSON, or an error answer turned into a thrown
// StrandClientError that keeps the server's code and status.

export interface StrandConnection {
  /** The server's base URL, e.g. `http://localhost:6969` (started with `strand serve --memory true`). */
  url: string;
  /** Sent as `Authorization: Bearer <apiKey>` when the server needs a key. */
  apiKey?: string | undefined;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof fetch | undefined;
}

/** An error answer from the server: `code` is its machine-readable code (e.g. INVALID_PARAMETER). */
export class StrandClientError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "StrandClientError";
  }
}

export class LangGraphClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly connection: StrandConnection) {
    this.base = `${connection.url.replace(/\/+$/, "")}/memory/langgraph/`;
    this.doFetch = connection.fetch ?? fetch;
  }

  async post<T>(route: string, body: object): Promise<T> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.connection.apiKey !== undefined) headers.authorization = `Bearer ${this.connection.apiKey}`;
    const response = await this.doFetch(this.base + route, { method: "POST", headers, body: JSON.stringify(body) });
    const text = await response.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new StrandClientError(`${route}: the server answered ${response.status} with a body that is not JSON`, "INVALID_ANSWER", response.status);
    }
    if (!response.ok) {
      const { error, code } = (answer ?? {}) as { error?: unknown; code?: unknown };
      throw new StrandClientError(
        `${route}: ${typeof error === "string" ? error : `the server answered ${response.status}`}`,
        typeof code === "string" ? code : "UNKNOWN",
        response.status,
      );
    }
    return answer as T;
  }
}

export function toBase64(bytes: Uint8Array | string): string {
  return typeof bytes === "string" ? Buffer.from(bytes, "utf8").toString("base64") : Buffer.from(bytes).toString("base64");
}

export function fromBase64(data: string): Uint8Array {
  return new Uint8Array(Buffer.from(data, "base64"));
}
