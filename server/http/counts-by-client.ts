// A count per client (http/client-key.ts) that forgets a client at 0, so the map holds only the
// clients that have something now, not every client ever seen. The per-client limits keep their
// counts in these: connections (front-door/connection-guard.ts), /mcp connections and the items
// they hold (mcp/connections.ts).
export class CountsByClient {
  private readonly counts = new Map<string, number>();

  of(client: string): number {
    return this.counts.get(client) ?? 0;
  }

  add(client: string, delta: number): void {
    const now = this.of(client) + delta;
    if (now <= 0) this.counts.delete(client);
    else this.counts.set(client, now);
  }
}
