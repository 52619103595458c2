// The endpoint of a running server: `POST /query` and `GET /introspect` over HTTP, with the api key
// as `Authorization: Bearer <key>` when there is one.
import type { Endpoint, QueryRequest, Reply } from "./endpoint.js";

export class HttpEndpoint implements Endpoint {
  private readonly base: string;

  constructor(
    readonly where: string,
    private key: string | undefined,
  ) {
    this.base = where.replace(/\/+$/, "");
  }

  query(request: QueryRequest): Promise<Reply> {
    const body = { query: request.text, params: request.params, ...(request.explain ? { explain: true } : {}) };
    return this.send("/query", { method: "POST", body: JSON.stringify(body) });
  }

  introspect(): Promise<Reply> {
    return this.send("/introspect", { method: "GET" });
  }

  useKey(key: string): void {
    this.key = key;
  }

  async close(): Promise<void> {}

  private async send(path: string, init: { method: string; body?: string }): Promise<Reply> {
    const headers: Record<string, string> = init.body === undefined ? {} : { "content-type": "application/json" };
    if (this.key !== undefined) headers.authorization = `Bearer ${this.key}`;
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { ...init, headers });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      return { reached: false, problem: `cannot reach ${this.where}: ${cause}` };
    }
    return { reached: true, status: res.status, body: await res.json().catch(() => null) };
  }
}
