#!/usr/bin/env node
// Exports a running HelixDB v2 instance's data as Strand's JSON Lines interchange format, through
// its HTTP API (POST /<QueryName>, JSON), by calling the queries generate.mjs wrote. Node 20, no
// dependencies.
//
//   node examples/helixdb-export/export.mjs [--plan strand-export.json] [--url http://localhost:6969]
//        [--api-key KEY] [--page 1000] [--out FILE | -]
//
// One line per record: nodes first, then vectors, then edges (an importer needs the ends first):
//   {"kind":"N","label":"User","id":"<uuid>",...fields}
//   {"kind":"V","label":"Doc","id":"<uuid>","data":[...],...fields}
//   {"kind":"E","label":"Follows","id":"<uuid>","from":"<uuid>","to":"<uuid>",...props}
// Fields come in schema declaration order, in their wire form as HelixDB sent them (Dates as
// RFC 3339 strings); unset fields (HelixDB sends null) are left out, and so is a vector's `score`.
// Pages are RANGE(start, end) over each type, so stop writing to HelixDB while exporting. With
// --out FILE the lines go to FILE.partial, renamed to FILE only when every type is exported.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** A record as HelixDB answers it, in the interchange format's shape. */
/** Members the interchange format itself uses, per kind. */
const ENVELOPE = { N: ["kind", "label", "id"], V: ["kind", "label", "id", "data"], E: ["kind", "label", "id", "from", "to"] };

export function toInterchange(type, record) {
  if (typeof record !== "object" || record === null || typeof record.id !== "string")
    throw new Error(`${type.kind}::${type.label}: expected records with an id, got ${JSON.stringify(record)}`);
  const line = { kind: type.kind, label: type.label, id: record.id };
  if (type.kind === "E") {
    line.from = record.from_node;
    line.to = record.to_node;
    if (typeof line.from !== "string" || typeof line.to !== "string")
      throw new Error(`E::${type.label} '${record.id}': the answer has no from_node/to_node`);
  }
  if (type.kind === "V") {
    if (!Array.isArray(record.data))
      throw new Error(`V::${type.label} '${record.id}': the answer holds no vector ("data"), so it cannot be exported`);
    line.data = record.data;
  }
  const envelope = ENVELOPE[type.kind];
  for (const field of type.fields) {
    const value = record[field];
    // A field named like an envelope member travels as `$name` (README, "Moving data in and out").
    if (value !== undefined && value !== null) line[envelope.includes(field) ? `$${field}` : field] = value;
  }
  return line;
}

/** Every record of every type of the plan, page by page, as interchange lines (strings without "\n"). */
export async function* exportLines(plan, { url, apiKey, page }) {
  for (const type of plan.types) {
    for (let start = 0; ; start += page) {
      const items = await callQuery(url, apiKey, type.query, { start, end: start + page });
      for (const record of items) yield JSON.stringify(toInterchange(type, record));
      if (items.length < page) break;
    }
  }
}

async function callQuery(url, apiKey, query, params) {
  const headers = { "content-type": "application/json" };
  if (apiKey !== undefined) headers["x-api-key"] = apiKey;
  const target = `${url.replace(/\/+$/, "")}/${query}`;
  let res;
  try {
    res = await fetch(target, { method: "POST", headers, body: JSON.stringify(params) });
  } catch (error) {
    // fetch says only "fetch failed"; the cause names what happened (ECONNREFUSED, a bad host..).
    const cause = error?.cause?.message ?? error?.cause?.code ?? error.message;
    throw new Error(`cannot reach ${target}: ${cause} (is HelixDB serving at --url ${url}?)`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`POST /${query} ${JSON.stringify(params)}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text);
  if (!Array.isArray(body?.items)) throw new Error(`POST /${query}: expected {"items": [...]}, got ${text.slice(0, 200)}`);
  return body.items;
}

function readPlan(file) {
  const plan = JSON.parse(fs.readFileSync(file, "utf8"));
  if (plan?.format !== "strand-helixdb-export" || plan.version !== 1 || !Array.isArray(plan.types))
    throw new Error(`${file} is not a plan written by generate.mjs`);
  return plan;
}

async function main() {
  const { values } = parseArgs({
    options: {
      plan: { type: "string", default: "strand-export.json" },
      url: { type: "string", default: "http://localhost:6969" },
      "api-key": { type: "string" },
      page: { type: "string", default: "1000" },
      out: { type: "string", default: "-" },
    },
  });
  const page = Number(values.page);
  if (!Number.isSafeInteger(page) || page < 1) throw new Error(`--page must be a positive integer, got ${values.page}`);
  const plan = readPlan(values.plan);
  const apiKey = values["api-key"] ?? process.env.HELIX_API_KEY;
  const toFile = values.out !== "-";
  const partial = `${values.out}.partial`;
  const fd = toFile ? fs.openSync(partial, "w") : null;
  let count = 0;
  let done = false;
  try {
    for await (const line of exportLines(plan, { url: values.url, apiKey, page })) {
      if (fd !== null) fs.writeSync(fd, `${line}\n`);
      else if (!process.stdout.write(`${line}\n`)) await new Promise((resolve) => process.stdout.once("drain", resolve));
      count++;
    }
    done = true;
  } finally {
    if (fd !== null) fs.closeSync(fd);
    // A failed export leaves no file behind: neither the partial one nor a stale --out.
    if (fd !== null && !done) fs.rmSync(partial, { force: true });
  }
  if (toFile) fs.renameSync(partial, values.out);
  process.stderr.write(`exported ${count} records of ${plan.types.length} types\n`);
}

if (process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`export.mjs: ${error.message}\n`);
    process.exitCode = 1;
  });
}
