// The explorer page: schema, browsing, named queries and searches on the left; the graph in the
// middle; the selected item's properties on the right.
import { ApiError, apiKey, introspect, type Introspection, type Item, neighbours, nodesPage, runQuery, search, setApiKey } from "./api.js";
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

function showItem(item: Item | null): void {
  selected = item;
  $("props").textContent = item === null ? "" : JSON.stringify(item, null, 2);
  $<HTMLButtonElement>("expand").disabled = item === null || item.from_node !== undefined || item.id.startsWith("type:");
}

async function expand(id: string): Promise<void> {
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
      const { nodes, edges } = itemsIn(answer);
      if (nodes.length + edges.length > 0) {
        graph.clear();
        graph.add(nodes, edges);
      }
      status(`${select.value}: ${nodes.length} nodes, ${edges.length} edges in the answer`);
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
    $("schema-show").onclick = () => graph.showSchema(schema);
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
(window as unknown as { explorer: unknown }).explorer = { graph, selected: () => selected };
void start();
