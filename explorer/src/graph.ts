// The graph canvas (Cytoscape.js, force-directed "cose" layout): items found by browsing, queries
// and searches are added; a click selects (its properties show beside the canvas), a double click
// or "Expand" adds the neighbours. The schema diagram is drawn in the same canvas.
import cytoscape, { type Core, type ElementDefinition } from "cytoscape";
import type { Introspection, Item } from "./api.js";

const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];

export class GraphView {
  readonly cy: Core;
  private readonly colours = new Map<string, string>();
  private readonly items = new Map<string, Item>();

  constructor(
    container: HTMLElement,
    private readonly onSelect: (item: Item | null) => void,
    onExpand: (id: string) => void,
  ) {
    this.cy = cytoscape({
      maxZoom: 4,
      container,
      wheelSensitivity: 0.3,
      style: [
        {
          selector: "node",
          style: { label: "data(caption)", "background-color": "data(colour)", color: "#222", "font-size": 10, "text-valign": "bottom" },
        },
        {
          selector: "edge",
          style: {
            label: "data(label)",
            width: 1.5,
            "font-size": 8,
            "curve-style": "bezier",
            "target-arrow-shape": "triangle",
            "line-color": "#999",
            "target-arrow-color": "#999",
          },
        },
        { selector: ":selected", style: { "border-width": 3, "border-color": "#111", "line-color": "#111" } },
      ],
    });
    this.cy.on("tap", "node, edge", (event) => this.onSelect(this.items.get(event.target.id() as string) ?? null));
    this.cy.on("tap", (event) => {
      if (event.target === this.cy) this.onSelect(null);
    });
    this.cy.on("dbltap", "node", (event) => onExpand(event.target.id() as string));
  }

  clear(): void {
    this.cy.elements().remove();
    this.items.clear();
    this.onSelect(null);
  }

  /** Force-directed layout, fitted to the canvas but never zoomed in past 1.5 (a lone node stays node-sized). */
  private layout(): void {
    this.cy.layout({ name: "cose", animate: false, randomize: false, fit: true, padding: 40 }).run();
    if (this.cy.zoom() > 1.5) {
      this.cy.zoom(1.5);
      this.cy.center();
    }
  }

  /** Adds nodes and edges (edges whose ends are not drawn are left out) and lays the graph out. */
  add(nodes: readonly Item[], edges: readonly Item[] = []): void {
    const elements: ElementDefinition[] = [];
    for (const n of nodes) {
      if (this.items.has(n.id)) continue;
      this.items.set(n.id, n);
      elements.push({ group: "nodes", data: { id: n.id, caption: caption(n), colour: this.colour(n.label) } });
    }
    for (const e of edges) {
      if (this.items.has(e.id) || e.from_node === undefined || e.to_node === undefined) continue;
      if (!this.items.has(e.from_node) || !this.items.has(e.to_node)) continue;
      this.items.set(e.id, e);
      elements.push({ group: "edges", data: { id: e.id, source: e.from_node, target: e.to_node, label: e.label } });
    }
    this.cy.add(elements);
    this.layout();
  }

  /** The schema as a diagram: one node per type, one arrow per edge type. */
  showSchema(schema: Introspection["schema"]): void {
    this.clear();
    const elements: ElementDefinition[] = [];
    for (const t of [...schema.nodes, ...schema.vectors]) {
      const kind = schema.vectors.includes(t) ? "V" : "N";
      const item: Item = { id: `type:${t.name}`, label: `${kind}::${t.name}`, ...t.properties };
      this.items.set(item.id, item);
      elements.push({ group: "nodes", data: { id: item.id, caption: `${kind}::${t.name}`, colour: this.colour(t.name) } });
    }
    for (const e of schema.edges) {
      const item: Item = { id: `edge:${e.name}`, label: `E::${e.name}`, from_node: `type:${e.from}`, to_node: `type:${e.to}`, ...e.properties };
      this.items.set(item.id, item);
      elements.push({ group: "edges", data: { id: item.id, source: item.from_node!, target: item.to_node!, label: e.name } });
    }
    this.cy.add(elements);
    this.layout();
  }

  private colour(label: string): string {
    let colour = this.colours.get(label);
    if (colour === undefined) {
      colour = PALETTE[this.colours.size % PALETTE.length]!;
      this.colours.set(label, colour);
    }
    return colour;
  }
}

/** A short caption: the first string field that looks like a name, else the type and id start. */
function caption(item: Item): string {
  for (const key of ["name", "title", "handle", "label_text", "email"]) {
    const value = item[key];
    if (typeof value === "string" && value !== "") return value.length > 24 ? `${value.slice(0, 23)}…` : value;
  }
  return `${item.label} ${item.id.slice(-6)}`;
}
