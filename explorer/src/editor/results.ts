// The centre's three views of the latest answer: Graph (the Cytoscape canvas, always laid out
// underneath so that it keeps its size), Table (one answer member at a time; a header click
// sorts, pages of 50) and JSON. An answer comes from the editor, a named query or a search.
import { type Direction, PAGE_SIZE, pageOf, type Row, sortRows, type Table, tablesOf, cellText } from "./table-model.js";

export type View = "graph" | "table" | "json";

export interface ResultsElements {
  tabs: HTMLElement;
  table: HTMLElement;
  part: HTMLSelectElement;
  head: HTMLTableSectionElement;
  body: HTMLTableSectionElement;
  pageInfo: HTMLElement;
  prev: HTMLButtonElement;
  next: HTMLButtonElement;
  json: HTMLElement;
}

export class ResultsView {
  private view: View = "graph";
  private tables: Table[] = [];
  private part = 0;
  private sort: { column: string; direction: Direction } | null = null;
  private page = 0;

  constructor(
    private readonly el: ResultsElements,
    private readonly onPick: (row: Row) => void,
  ) {
    for (const button of el.tabs.querySelectorAll<HTMLButtonElement>("button[data-view]")) {
      button.onclick = () => this.show(button.dataset.view as View);
    }
    el.part.onchange = () => {
      this.part = Number(el.part.value);
      this.sort = null;
      this.page = 0;
      this.drawTable();
    };
    el.prev.onclick = () => {
      this.page--;
      this.drawTable();
    };
    el.next.onclick = () => {
      this.page++;
      this.drawTable();
    };
    this.show("graph");
  }

  get current(): View {
    return this.view;
  }

  show(view: View): void {
    this.view = view;
    this.el.table.hidden = view !== "table";
    this.el.json.hidden = view !== "json";
    for (const button of this.el.tabs.querySelectorAll<HTMLButtonElement>("button[data-view]")) {
      button.classList.toggle("active", button.dataset.view === view);
    }
  }

  /** A new answer for the table and JSON views (the caller draws the graph). */
  set(answer: unknown): void {
    this.tables = tablesOf(answer);
    this.part = 0;
    this.sort = null;
    this.page = 0;
    this.el.part.replaceChildren(
      ...this.tables.map((t, i) =>
        Object.assign(document.createElement("option"), { value: String(i), textContent: `${t.name} (${t.rows.length})` }),
      ),
    );
    this.el.part.hidden = this.tables.length < 2;
    this.el.json.textContent = JSON.stringify(answer, null, 2);
    this.drawTable();
  }

  private drawTable(): void {
    const table = this.tables[this.part];
    if (table === undefined) {
      this.el.head.replaceChildren();
      this.el.body.replaceChildren();
      this.el.pageInfo.textContent = "";
      this.el.prev.disabled = this.el.next.disabled = true;
      return;
    }
    const sorted = this.sort === null ? table.rows : sortRows(table.rows, this.sort.column, this.sort.direction);
    const shown = pageOf(sorted, this.page);
    this.page = shown.page;
    const headRow = document.createElement("tr");
    for (const column of table.columns) {
      const th = document.createElement("th");
      th.textContent = column;
      th.title = "sort by this column";
      if (this.sort?.column === column) th.dataset.sort = this.sort.direction;
      th.onclick = () => {
        const direction: Direction = this.sort?.column === column && this.sort.direction === "asc" ? "desc" : "asc";
        this.sort = { column, direction };
        this.page = 0;
        this.drawTable();
      };
      headRow.append(th);
    }
    this.el.head.replaceChildren(headRow);
    this.el.body.replaceChildren(
      ...shown.rows.map((row) => {
        const tr = document.createElement("tr");
        for (const column of table.columns) {
          const td = document.createElement("td");
          td.textContent = cellText(column, row[column]);
          tr.append(td);
        }
        tr.onclick = () => this.onPick(row);
        return tr;
      }),
    );
    const first = sorted.length === 0 ? 0 : shown.page * PAGE_SIZE + 1;
    this.el.pageInfo.textContent = `${table.name}: rows ${first}–${shown.page * PAGE_SIZE + shown.rows.length} of ${sorted.length}`;
    this.el.prev.disabled = shown.page === 0;
    this.el.next.disabled = shown.page >= shown.pages - 1;
  }
}
