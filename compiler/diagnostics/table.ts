// The one table of diagnostic codes, in the discipline of the TypeScript compiler's
// diagnosticMessages.json: every code the compiler can report is declared here once, with its
// severity, the gist of its message and its documentation. Code elsewhere names codes through the
// types below, so an undeclared code, or an error reported as a warning, does not type-check.
// docs/ARCHITECTURE.md's list of codes is generated from this table (`npm run docs`)
// and test/diagnostics-table.test.ts fails when it is stale.
//
// Codes: E0xx syntax, E1xx names and schema, E2xx types, E3xx query structure, E9xx not supported
// yet and internal errors; W0xx warnings. Messages themselves are written where the problem is
// found, with the names and types of the program; `message` gives their common shape.
export type Severity = "error" | "warning";

export interface DiagnosticEntry {
  readonly severity: Severity;
  /** The shape of the message, `{…}` standing for what the program supplies. */
  readonly message: string;
  /** When the code is reported and why, for the docs. */
  readonly doc: string;
  /** The code reports a bug in Strand, not in the program: no input should produce it. */
  readonly internal?: true;
  /** Reported only for an ad-hoc query (`POST /query`, compiler/adhoc.ts), never for a project's files. */
  readonly adhoc?: true;
}

export const DIAGNOSTICS = {
  E001: {
    severity: "error",
    message: "expected {what could come here}, found {token}",
    doc: "Unexpected token, the general syntax error: the message lists what could come there and names the bracket still open (\"expected ',' or ')' to close the argument list of RANGE, found 'RETURN'\").",
  },
  E002: {
    severity: "error",
    message: "unterminated string literal: missing the closing '\"'",
    doc: "A string literal that is not closed; the span runs from the opening quote to the end of its line.",
  },
  E003: {
    severity: "error",
    message: "invalid escape sequence '{escape}' in string literal",
    doc: "An escape a string literal does not know, e.g. `\\q`; the span is the escape.",
  },
  E004: {
    severity: "error",
    message: "'{keyword}' is a reserved keyword and cannot be used as a name here",
    doc: "A reserved keyword used as a name (`QUERY Get(IN: String)`).",
  },
  E005: {
    severity: "error",
    message: "expected {what could come here}, found end of file",
    doc: "Unexpected end of file: something is still open or incomplete.",
  },
  E006: {
    severity: "error",
    message: "nested more than {MAX_NESTING} levels deep (the limit of HelixQL programs)",
    doc: "Input nested deeper than `MAX_NESTING` = 48 levels, at the first node beyond the limit (compiler/syntax/nesting.ts); nothing else is checked. A parser stack overflow (hundreds of levels deeper) is E006 at the first bracket beyond the limit.",
  },
  E007: {
    severity: "error",
    message: "'{operator}' is not a HelixQL operator: values are compared with steps such as ::{STEP}(..)",
    doc: "An infix comparison (`==`, `!=`, `>`, `>=`, `<`, `<=`, `=`) where a step could continue the expression, e.g. `::WHERE(_::{name} == name)`; the hint rewrites it with the step (`_::{name}::EQ(name)`).",
  },
  E099: {
    severity: "error",
    message: "internal parser failure: {reason}",
    doc: "The parser failed in a way that is not a syntax error: a bug in Strand's parser.",
    internal: true,
  },
  E101: {
    severity: "error",
    message: "unknown {node|edge|vector} type '{name}'",
    doc: "Unknown type: a name that the schema (or, in a MIGRATION, that schema version) does not declare.",
  },
  E102: {
    severity: "error",
    message: "type '{name}' is declared twice",
    doc: "Duplicate type.",
  },
  E103: {
    severity: "error",
    message: "unknown type '{name}'",
    doc: "Unknown field type: not a scalar, `[T]`, `{..}` object type or `ID`.",
  },
  E104: {
    severity: "error",
    message: "field name '{name}' is reserved: {why}",
    doc: 'Reserved field, object member or parameter name: `id`, `label`, `from_node`, `to_node`, on vectors `data` and `score`; `__proto__` anywhere (`{__proto__: v}` would set a prototype, so codegen writes a projection or RETURN key of that name as `["__proto__"]`).',
  },
  E105: {
    severity: "error",
    message: "'{name}' appears twice in {where}",
    doc: "Duplicate field or member (in a type, an object type, a projection, a property object).",
  },
  E106: {
    severity: "error",
    message: "edge type '{name}' has no '{From|To}:' node type",
    doc: "An edge type without From or To.",
  },
  E107: {
    severity: "error",
    message: "only scalar fields can be indexed; '{field}' is {type}",
    doc: "An INDEX on a field that is not a scalar.",
  },
  E110: {
    severity: "error",
    message: "unknown field '{field}' on {type}",
    doc: "Unknown field.",
  },
  E111: {
    severity: "error",
    message: "field '{field}' of {type} is not indexed, so it cannot be looked up",
    doc: "A lookup `N<T>({field: v})` by a field that has no INDEX.",
  },
  E120: {
    severity: "error",
    message: "'{name}' is not a parameter or variable of query '{query}'",
    doc: "Undeclared name.",
  },
  E121: {
    severity: "error",
    message: "'_' stands for the item a step works on ({where}), and there is none here",
    doc: "`_` outside a step.",
  },
  E122: {
    severity: "error",
    message: "the type of parameter '{name}' cannot be told from where the query uses it",
    doc: "An ad-hoc query body (`POST /query`) uses a parameter only where no type is expected, and its value's JSON does not say one: declare it in a whole `QUERY`.",
    adhoc: true,
  },
  E201: {
    severity: "error",
    message: "expected {type}, found {literal}",
    doc: "A literal of the wrong type or out of its type's range.",
  },
  E202: {
    severity: "error",
    message: "DEFAULT NOW needs a Date or 64-bit integer field; '{field}' is {type}",
    doc: "DEFAULT NOW on a field that is neither a Date nor an I64, U64 or U128: a String, a float, or an integer too small for epoch milliseconds (I8..I32, U8..U32; the message gives the type's largest value, the hint suggests Date or I64).",
  },
  E203: {
    severity: "error",
    message: "{step} works on {what it takes}, but its input is {input}",
    doc: "A step that does not fit its input.",
  },
  E204: {
    severity: "error",
    message: "expected a {type}, but this is a {type}",
    doc: "Edge direction or endpoint type: the edge does not connect these types, or an item of another type where one of a given type is needed.",
  },
  E205: {
    severity: "error",
    message: "{what} must be {a non-negative integer|an integer >= n}, {found …}",
    doc: "A RANGE bound, k, limit or ef that is not a non-negative integer (a literal at most 2^53 - 1).",
  },
  E206: {
    severity: "error",
    message: "{what} is {type}, but this is {what it is}",
    doc: "A value of the wrong type for its position (a field, an id, a vector, a list).",
  },
  E207: {
    severity: "error",
    message: "the heuristic property must be numeric; '{field}' is {type}",
    doc: "A ShortestPath weight or heuristic that is not a number (or a negative weight).",
  },
  E208: {
    severity: "error",
    message: "ORDER needs a direction: ORDER<Asc>(..) or ORDER<Desc>(..)",
    doc: "ORDER without a direction.",
  },
  E209: {
    severity: "error",
    message: "{step or function} takes {its arguments}, e.g. {example}",
    doc: "The wrong arguments for a step, source or function (their number, names or kinds).",
  },
  E212: {
    severity: "error",
    message: "expected a condition, but this is {what it is}",
    doc: "Not a condition where one is needed (WHERE, AND, OR, `!`).",
  },
  E213: {
    severity: "error",
    message: "cannot compare {type} with {type}",
    doc: "Values that cannot be compared.",
  },
  E214: {
    severity: "error",
    message: "{function} needs numbers, but {what it got}",
    doc: "Not a number where math or an aggregate needs one.",
  },
  E215: {
    severity: "error",
    message: "FOR iterates over a list, but this is {what it is}",
    doc: "FOR over something that is not a list (or `FOR {..}` over values that are not objects).",
  },
  E216: {
    severity: "error",
    message: "DROP removes nodes, edges or vectors, but this is {what it is}",
    doc: "DROP of something that is not items.",
  },
  E217: {
    severity: "error",
    message: "{step or field} needs {node|edge|vector}s of one type, but this is {items} of any type (untyped {N|E|V})",
    doc: "A step, field or lookup that needs one type, on the items of any type of an untyped `N`/`E`/`V`.",
  },
  E301: {
    severity: "error",
    message: "query '{name}' is defined twice",
    doc: "Duplicate query.",
  },
  E302: {
    severity: "error",
    message: "parameter '{name}' is declared twice",
    doc: "Duplicate parameter.",
  },
  E303: {
    severity: "error",
    message: "{AddE|UpsertE}<{type}> needs both ::From(..) and ::To(..)",
    doc: "AddE or UpsertE without From or To.",
  },
  E304: {
    severity: "error",
    message: "::{ShortestPath step} must be followed by ::To(id) or ::From(id)",
    doc: "ShortestPath without To or From.",
  },
  E305: {
    severity: "error",
    message: "'{name}' is already defined in query '{query}'",
    doc: "A name already defined in the query.",
  },
  E306: {
    severity: "error",
    message: "unknown attribute '#[{name}]'",
    doc: "An unknown attribute, or one given twice.",
  },
  E307: {
    severity: "error",
    message: "RETURN names '{name}' twice",
    doc: "RETURN names a member twice.",
  },
  E308: {
    severity: "error",
    message: "{why the model name is not one Strand knows}",
    doc: 'A `#[model("…")]` naming no embedding model Strand knows (checked as startup checks it).',
  },
  E310: {
    severity: "error",
    message: "SearchBM25 needs the keyword index, which this project disables",
    doc: "SearchBM25 while the project sets `bm25 = false`.",
  },
  E311: {
    severity: "error",
    message: "a MIGRATION needs versioned schemas (schema::1 { .. }, schema::2 { .. })",
    doc: "A MIGRATION without versioned schemas, naming a version that is not declared, or going to a lower version.",
  },
  E312: {
    severity: "error",
    message: "a project declares its schema either in schema::N blocks or outside them, not both",
    doc: "Schema items both inside and outside `schema::N` blocks.",
  },
  E313: {
    severity: "error",
    message: "a query named 'mcp' collides with the MCP endpoint POST /mcp",
    doc: "A query named `mcp` while the agent tools are on: it could never be called, `POST /mcp` is the MCP endpoint (compiler/check/routes.ts).",
  },
  E314: {
    severity: "error",
    message: "'{field}' holds the vector of {type}: vectors cannot be changed by a migration",
    doc: "A MIGRATION mapping that targets a V type's vector (`data`, or its `embedding: [F64]` field: the HNSW index holds it).",
  },
  E315: {
    severity: "error",
    message: "an ad-hoc query is one QUERY, or a body (statements and a RETURN), and no schema",
    doc: "`POST /query` text that declares types or more than one query.",
    adhoc: true,
  },
  E900: {
    severity: "error",
    message: "{construct} is not supported yet",
    doc: "Not supported yet (only renaming a type in a MIGRATION).",
  },
  E902: {
    severity: "error",
    message: "unknown {step|source|function} '{name}'",
    doc: "Unknown step, source or function.",
  },
  E999: {
    severity: "error",
    message: "internal compiler error: {reason}",
    doc: "A bug in the compiler met while checking or generating one query, reported at that query's name (else at the start of the first file).",
    internal: true,
  },
  W001: {
    severity: "warning",
    message: "query '{name}' has no RETURN",
    doc: "A query without RETURN.",
  },
  W002: {
    severity: "warning",
    message: "variable '{name}' is never used",
    doc: "A variable never used. A variable bound to a write counts as used; a name starting with `_` is exempt; in a query with errors, a name it mentions anywhere counts as used, since what follows an error is not checked.",
  },
  W003: {
    severity: "warning",
    message: "{type} declares a field 'score', so {call} results keep its stored value and do not carry their {score}",
    doc: "SearchBM25 or RerankRRF over a node type that declares its own `score` field (its stored value stays; the relevance score is not attached).",
  },
  W004: {
    severity: "warning",
    message: "DEFAULT NOW on {type} field '{field}' stores the time as epoch milliseconds (a number), not as a Date",
    doc: "DEFAULT NOW on an I64, U64 or U128 field, as HelixDB schemas write `created_at: I64 DEFAULT NOW`: a record created without the field gets `Date.now()`, a number; the hint suggests declaring it as Date, whose values read as times and compare with NOW and Date values.",
  },
} as const satisfies Record<string, DiagnosticEntry>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

type CodesOf<S extends Severity> = { [C in DiagnosticCode]: (typeof DIAGNOSTICS)[C]["severity"] extends S ? C : never }[DiagnosticCode];

/** The codes declared as errors: what `error(..)` accepts. */
export type ErrorCode = CodesOf<"error">;
/** The codes declared as warnings: what `warning(..)` accepts. */
export type WarningCode = CodesOf<"warning">;

/** Every declared code, in table order. */
export const DIAGNOSTIC_CODES = Object.keys(DIAGNOSTICS) as DiagnosticCode[];

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.hasOwn(DIAGNOSTICS, code);
}
