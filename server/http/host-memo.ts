// A per-Host memo for what a request's Host header decides (is it a loopback name, what is the
// origin it makes): a client sends the same Host on every request, and parsing it with the URL
// parser each time cost ~4 us a request. Bounded: past MAX_HOSTS names the memo starts over, so
// a client sending random Host headers costs the parse, not memory.
export const MAX_HOSTS = 64;

export class HostMemo<T> {
  private readonly known = new Map<string, T>();

  constructor(private readonly compute: (host: string) => T) {}

  get(host: string): T {
    const hit = this.known.get(host);
    if (hit !== undefined || this.known.has(host)) return hit as T;
    const value = this.compute(host);
    if (this.known.size >= MAX_HOSTS) this.known.clear();
    this.known.set(host, value);
    return value;
  }
}
