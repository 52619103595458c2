// What the shell and `strand query` talk to: a running server over HTTP (http-endpoint.ts) or a
// stopped store opened in this process (local-endpoint.ts). Both answer as the server's HTTP API
// does, status and JSON body, so everything above them prints one kind of answer.

/** What `POST /query` takes. */
export interface QueryRequest {
  text: string;
  params: Readonly<Record<string, unknown>>;
  explain: boolean;
}

/** An answer (any status, its JSON body; null when it had none), or why none came. */
export type Reply = { reached: true; status: number; body: unknown } | { reached: false; problem: string };

export interface Endpoint {
  /** Where the answers come from, for the banner: the URL, or the data directory. */
  readonly where: string;
  /** `POST /query`. */
  query(request: QueryRequest): Promise<Reply>;
  /** `GET /introspect`: the schema and the queries. */
  introspect(): Promise<Reply>;
  /** Sends this api key from now on (the shell asks for one on a 401). */
  useKey(key: string): void;
  close(): Promise<void>;
}
