// Which items a search's filter keeps, by the rule of LangGraph's stores: each member of the filter
// names a top-level field of the item's value and either a value it must equal (===) or an object
// of operators, all of which must hold: $eq/$ne (===, !==), $gt/$gte/$lt/$lte (compared as
// numbers), $in/$nin (membership in a list; a non-list is in nothing). An object with any other
// member is a value to equal, and so, compared with ===, matches nothing.
const OPERATORS: ReadonlySet<string> = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

export function passesFilter(value: Record<string, unknown>, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([field, wanted]) => compare(Object.hasOwn(value, field) ? value[field] : undefined, wanted));
}

function isOperators(wanted: unknown): wanted is Record<string, unknown> {
  return typeof wanted === "object" && wanted !== null && Object.keys(wanted).every((k) => OPERATORS.has(k));
}

function compare(actual: unknown, wanted: unknown): boolean {
  if (!isOperators(wanted)) return actual === wanted;
  return Object.entries(wanted).every(([op, operand]) => {
    switch (op) {
      case "$eq":
        return actual === operand;
      case "$ne":
        return actual !== operand;
      case "$gt":
        return Number(actual) > Number(operand);
      case "$gte":
        return Number(actual) >= Number(operand);
      case "$lt":
        return Number(actual) < Number(operand);
      case "$lte":
        return Number(actual) <= Number(operand);
      case "$in":
        return Array.isArray(operand) && operand.includes(actual);
      default:
        return !Array.isArray(operand) || !operand.includes(actual);
    }
  });
}
