// `strand tenant list|create|drop|stats <url> [name]`: a running server's tenants, through its
// admin routes (server/tenants/tenant-routes.ts), with an admin key. Prints the answer: one tenant
// per line for list, JSON for stats; errors as the server words them (exit 1).
export interface TenantOptions {
  action: "list" | "create" | "drop" | "stats";
  url: string;
  key: string | undefined;
  name?: string;
}

const METHOD = { list: "GET", stats: "GET", create: "POST", drop: "DELETE" } as const;

export async function runTenant(options: TenantOptions): Promise<number> {
  const path = options.name === undefined ? "/tenants" : `/tenants/${encodeURIComponent(options.name)}`;
  const headers: Record<string, string> = options.key === undefined ? {} : { authorization: `Bearer ${options.key}` };
  let res: Response;
  try {
    res = await fetch(`${options.url.replace(/\/+$/, "")}${path}`, { method: METHOD[options.action], headers });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    process.stderr.write(`strand: cannot reach ${options.url}: ${cause}\n`);
    return 1;
  }
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) {
    process.stderr.write(
      `strand: ${res.status} ${String(body?.code ?? "")}: ${String(body?.error ?? "the server answered without a JSON error")}\n`,
    );
    return 1;
  }
  switch (options.action) {
    case "list":
      for (const t of (body?.tenants ?? []) as { name: string; open: boolean }[])
        process.stdout.write(`${t.name}\t${t.open ? "open" : "idle"}\n`);
      return 0;
    case "create":
      process.stdout.write(body?.created === true ? `created ${options.name}\n` : `${options.name} exists already\n`);
      return 0;
    case "drop":
      process.stdout.write(`dropped ${options.name} and all its data\n`);
      return 0;
    case "stats":
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return 0;
  }
}
