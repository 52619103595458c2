// A form for a named query, generated from its parameters' HelixQL types: text for String and ID,
// number inputs for numbers, a checkbox for Boolean, JSON for arrays and objects. Optional
// parameters (trailing `?`) left empty are not sent.

const NUMBERS = new Set(["I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64", "U128", "F32", "F64"]);

export interface QueryForm {
  element: HTMLElement;
  /** The parameters as entered, or an error message naming the parameter. */
  values(): { ok: true; params: Record<string, unknown> } | { ok: false; error: string };
}

export function queryForm(parameters: Record<string, string>): QueryForm {
  const element = document.createElement("div");
  const readers: (() => [string, unknown] | string | null)[] = [];
  for (const [name, declared] of Object.entries(parameters)) {
    const optional = declared.endsWith("?");
    const type = optional ? declared.slice(0, -1) : declared;
    const row = document.createElement("label");
    row.className = "param";
    row.textContent = `${name}: ${declared} `;
    let input: HTMLInputElement | HTMLTextAreaElement;
    if (type === "Boolean") {
      input = Object.assign(document.createElement("input"), { type: "checkbox" });
      readers.push(() => [name, (input as HTMLInputElement).checked]);
    } else if (NUMBERS.has(type)) {
      input = Object.assign(document.createElement("input"), { type: "number", step: "any" });
      readers.push(() => {
        if (input.value === "") return optional ? null : `${name}: a number is required`;
        return [name, Number(input.value)];
      });
    } else if (type.startsWith("[") || type.startsWith("{")) {
      input = Object.assign(document.createElement("textarea"), { rows: 2, placeholder: "JSON" });
      readers.push(() => {
        if (input.value.trim() === "") return optional ? null : `${name}: a JSON value is required`;
        try {
          return [name, JSON.parse(input.value) as unknown];
        } catch {
          return `${name}: not valid JSON`;
        }
      });
    } else {
      input = Object.assign(document.createElement("input"), { type: "text" });
      readers.push(() => (input.value === "" && optional ? null : [name, input.value]));
    }
    input.name = name;
    row.append(input);
    element.append(row);
  }
  return {
    element,
    values() {
      const params: Record<string, unknown> = {};
      for (const read of readers) {
        const result = read();
        if (typeof result === "string") return { ok: false, error: result };
        if (result !== null) params[result[0]] = result[1];
      }
      return { ok: true, params };
    },
  };
}
