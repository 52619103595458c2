// The explorer page: schema, browsing, named queries and searches on the left; the HelixQL editor
// and the views of an answer (graph, table, JSON) in the middle; the selected item's properties
// on the right.
import { ApiError, apiKey, introspect, type Introspection, type Item, neighbours, nodesPage, runQuery, search, setApiKey } from "./api.js";
import { EditorPanel } from "./editor/panel.js";
import { ResultsView } from "./editor/results.js";
import { queryForm, type QueryForm } from "./forms.js";
import { GraphView } from "./graph.js";
import { itemsIn } from "./items.js";

const PAGE = 25;

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} is missing from the page`);
  return el as T;
};

const status = (text: string, error = false): void => {
  const el = $("status");
  el.textContent = text;
  el.className = error ? "error" : "";
};

function fail(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) {
    $("key-box").hidden = false;
    status("this server needs its api key", true);
    return;
  }
  status(error instanceof ApiError ? `${error.code}: ${error.message}` : String(error), true);
}

const graph = new GraphView($("graph"), showItem, (id) => void expand(id));
let selected: Item | null = null;

const results = new ResultsView(
  {
    tabs: $("views"),
    table: $("table-view"),
    part: $("table-part"),
    head: $<HTMLTableSectionElement>("result-head"),
    body: $<HTMLTableSectionElement>("result-body"),
    pageInfo: $("table-page"),
    prev: $("table-prev"),
    next: $("table-next"),
    json: $("json-view"),
  },
  (row) => showItem(typeof row.id === "string" && typeof row.label === "string" ? (row as Item) : null, row),
);

/** Replaces the graph with an answer's nodes and edges, if it holds any. */
function drawAnswer(answer: unknown): { nodes: number; edges: number } {
  const { nodes, edges } = itemsIn(answer);
  if (nodes.length + edges.length > 0) {
    graph.clear();
    graph.add(nodes, edges);
  }
  return { nodes: nodes.length, edges: edges.length };
}

const editor = new EditorPanel({ results, drawAnswer, status, fail });

/** `shown`: what to list when it is no graph item (a table row of a projection). */
function showItem(item: Item | null, shown: unknown = item): void {
  selected = item;
  $("props").textContent = shown === null ? "" : JSON.stringify(shown, null, 2);
  $<HTMLButtonElement>("expand").disabled = item === null || item.from_node !== undefined || item.id.startsWith("type:");
}

async function expand(id: string): Promise<void> {
  results.show("graph");
  try {
    const { center, nodes, edges } = await neighbours(id);
    graph.add([center, ...nodes], edges);
    status(`${nodes.length} neighbours, ${edges.length} edges`);
  } catch (error) {
    fail(error);
  }
}

function options(select: HTMLSelectElement, values: readonly string[]): void {
  select.replaceChildren(...values.map((v) => Object.assign(document.createElement("option"), { value: v, textContent: v })));
}

function setUpBrowse(schema: Introspection["schema"]): void {
  const typeSelect = $<HTMLSelectElement>("browse-type");
  const fieldSelect = $<HTMLSelectElement>("browse-field");
  const types = [...schema.nodes, ...schema.vectors];
  options(
    typeSelect,
    types.map((t) => t.name),
  );
  const fields = (): void => {
    const t = types.find((x) => x.name === typeSelect.value);
    options(fieldSelect, ["", "id", ...Object.keys(t?.properties ?? {})]);
  };
  typeSelect.onchange = fields;
  fields();
  let offset = 0;
  const load = async (): Promise<void> => {
    results.show("graph");
    try {
      const page = await nodesPage(typeSelect.value, offset, PAGE, fieldSelect.value, $<HTMLInputElement>("browse-filter").value);
      graph.add(page.items);
      $<HTMLButtonElement>("browse-next").disabled = !page.more;
      $<HTMLButtonElement>("browse-prev").disabled = offset === 0;
      status(`${typeSelect.value}: items ${offset + 1}–${offset + page.items.length}${page.more ? ", more follow" : ""}`);
    } catch (error) {
      fail(error);
    }
  };
  $("browse-go").onclick = () => {
    offset = 0;
    graph.clear();
    void load();
  };
  $("browse-next").onclick = () => {
    offset += PAGE;
    void load();
  };
  $("browse-prev").onclick = () => {
    offset = Math.max(0, offset - PAGE);
    void load();
  };
}

function setUpQueries(queries: Introspection["queries"]): void {
  const select = $<HTMLSelectElement>("query-name");
  options(
    select,
    queries.map((q) => q.name),
  );
  let form: QueryForm | null = null;
  const build = (): void => {
    const q = queries.find((x) => x.name === select.value);
    form = q === undefined ? null : queryForm(q.parameters);
    $("query-form").replaceChildren(...(form === null ? [] : [form.element]));
  };
  select.onchange = build;
  build();
  $("query-run").onclick = async () => {
    if (form === null) return;
    const values = form.values();
    if (!values.ok) {
      status(values.error, true);
      return;
    }
    try {
      const answer = await runQuery(select.value, values.params);
      $("query-result").textContent = JSON.stringify(answer, null, 2);
      results.set(answer);
      const { nodes, edges } = drawAnswer(answer);
      status(`${select.value}: ${nodes} nodes, ${edges} edges in the answer`);
    } catch (error) {
      $("query-result").textContent = error instanceof ApiError ? JSON.stringify({ error: error.message, code: error.code }, null, 2) : String(error);
      fail(error);
    }
  };
}

function setUpSearch(schema: Introspection["schema"]): void {
  const keywordType = $<HTMLSelectElement>("keyword-type");
  const vectorType = $<HTMLSelectElement>("vector-type");
  options(
    keywordType,
    [...schema.nodes, ...schema.vectors].map((t) => t.name),
  );
  options(
    vectorType,
    schema.vectors.map((t) => t.name),
  );
  const run = async (tool: "search_keyword" | "search_vector_text", label: string, text: string): Promise<void> => {
    try {
      const found = await search(tool, label, text);
      // The table lists them with their score; the graph shows them.
      results.set({ found });
      graph.clear();
      graph.add(found);
      status(`${found.length} found`);
    } catch (error) {
      fail(error);
    }
  };
  $("keyword-go").onclick = () => void run("search_keyword", keywordType.value, $<HTMLInputElement>("keyword-text").value);
  $("vector-go").onclick = () => void run("search_vector_text", vectorType.value, $<HTMLInputElement>("vector-text").value);
  $<HTMLButtonElement>("vector-go").disabled = schema.vectors.length === 0;
}

async function start(): Promise<void> {
  $<HTMLInputElement>("key").value = apiKey() ?? "";
  $("key-save").onclick = () => {
    setApiKey($<HTMLInputElement>("key").value);
    void start();
  };
  $("expand").onclick = () => {
    if (selected !== null) void expand(selected.id);
  };
  try {
    const description = await introspect();
    $("key-box").hidden = apiKey() === null;
    const { schema } = description;
    $("schema-list").textContent = [
      ...schema.nodes.map((t) => `N::${t.name}`),
      ...schema.vectors.map((t) => `V::${t.name}`),
      ...schema.edges.map((e) => `E::${e.name} (${e.from} → ${e.to})`),
    ].join("\n");
    $("schema-show").onclick = () => {
      results.show("graph");
      graph.showSchema(schema);
    };
    editor.setSchema(schema);
    setUpBrowse(schema);
    setUpQueries(description.queries);
    setUpSearch(schema);
    graph.showSchema(schema);
    status(`${description.queries.length} queries; double-click a node to expand it`);
    document.body.dataset.ready = "true";
  } catch (error) {
    fail(error);
  }
}

// For tests and the curious: the graph and the selection, from the browser console.
(window as unknown as { explorer: unknown }).explorer = { graph, results, selected: () => selected };
void start();
