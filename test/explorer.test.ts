// Issue #13 item 8: the graph explorer in a real browser. Headless Chromium (Debian's `chromium`,
// installed by .ci/run; or STRAND_CHROMIUM) loads /explorer, browses a type, expands a node by
// double-clicking it, runs a named query from its generated form and a keyword search, and saves a
// screenshot to test-artifacts/ after the expansion and after the search.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../server/server.js";
import { type McpFixture, openFixture, queries, schema } from "./support/mcp-fixture.js";
import { REPO_ROOT } from "./support/server.js";

const CHROMIUM = [process.env.STRAND_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p),
);

interface Counts {
  nodes: number;
  edges: number;
}

// Expressions evaluated in the page (strings: the tests are type-checked without the DOM library).
const counts = (page: Page): Promise<Counts> =>
  page.evaluate("({ nodes: explorer.graph.cy.nodes().length, edges: explorer.graph.cy.edges().length })") as Promise<Counts>;

/** The page answers within seconds even on a loaded machine. */
const POLL = { timeout: 20_000, interval: 100 };

const text = async (page: Page, selector: string): Promise<string> => (await page.textContent(selector)) ?? "";

describe("the explorer in Chromium", () => {
  let f: McpFixture;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // Needs a real part .ci/run installs: absent, the test fails saying so rather than skipping.
    if (CHROMIUM === undefined)
      throw new Error(
        "no Chromium found: install Debian's chromium (or set STRAND_CHROMIUM); .ci/run installs it, and CI must run this test",
      );
    f = await openFixture();
    server = await startServer({ store: f.store, schema, queries, port: 0, explorer: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await f?.close();
  });

  it("loads, browses, expands a node, runs a query and a search", async () => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://localhost:${server.port}/explorer`);
    await page.waitForSelector("body[data-ready=true]", { timeout: 20_000 });
    expect(await page.textContent("#schema-list")).toBe("N::User\nN::Post\nE::Follows (User → User)\nE::Wrote (User → Post)");
    // The schema diagram: two types, two edge types.
    expect(await counts(page)).toEqual({ nodes: 2, edges: 2 });

    // Browse the users: four, no more pages.
    await page.selectOption("#browse-type", "User");
    await page.click("#browse-go");
    await expect.poll(() => text(page, "#status"), POLL).toBe("User: items 1–4");
    expect(await counts(page)).toEqual({ nodes: 4, edges: 0 });

    // Double-click ada: her follows (bob, cyd), her follower (dee) and her post join the graph.
    const at = (await page.evaluate(
      `(() => { const box = document.getElementById("graph").getBoundingClientRect(); const p = explorer.graph.cy.$id(${JSON.stringify(f.data.ada.id)}).renderedPosition(); return { x: box.left + p.x, y: box.top + p.y }; })()`,
    )) as { x: number; y: number };
    await page.mouse.click(at.x, at.y);
    await expect.poll(() => text(page, "#props"), POLL).toContain('"name": "ada"');
    await page.mouse.dblclick(at.x, at.y);
    await expect.poll(() => text(page, "#status"), POLL).toBe("4 neighbours, 4 edges");
    expect(await counts(page)).toEqual({ nodes: 5, edges: 4 });
    mkdirSync(join(REPO_ROOT, "test-artifacts"), { recursive: true });
    await page.screenshot({ path: join(REPO_ROOT, "test-artifacts/explorer-expanded.png") });

    // A named query from its generated form: the answer as JSON, its items as the graph.
    await page.selectOption("#query-name", "UsersInCity");
    await page.fill("#query-form input[name=city]", "London");
    await page.click("#query-run");
    await expect.poll(() => text(page, "#status"), POLL).toMatch(/^UsersInCity:/);
    const answer = JSON.parse((await page.textContent("#query-result")) ?? "null") as { users: { name: string }[] };
    expect(answer.users.map((u) => u.name)).toEqual(["ada", "cyd"]);
    expect(await counts(page)).toEqual({ nodes: 2, edges: 0 });

    // Keyword search over the users.
    await page.selectOption("#keyword-type", "User");
    await page.fill("#keyword-text", "Paris");
    await page.click("#keyword-go");
    await expect.poll(() => text(page, "#status"), POLL).toBe("1 found");
    expect(await counts(page)).toEqual({ nodes: 1, edges: 0 });

    await page.screenshot({ path: join(REPO_ROOT, "test-artifacts/explorer-search.png") });
    expect(errors).toEqual([]);
  }, 60_000);
});
