// `strand init` on a terminal without --template: a numbered menu of the templates, answered by a
// number or a name (Enter: the first). Reads from any stream, so tests answer it without a terminal.
import { createInterface } from "node:readline";
import { DEFAULT_TEMPLATE, TEMPLATES, templateNamed, type Template } from "./templates.js";

/** The menu, one numbered line per template, the default first. */
export function templateMenu(): string {
  const width = Math.max(...TEMPLATES.map((t) => t.name.length));
  const rows = TEMPLATES.map((t, i) => `  ${i + 1}. ${t.name.padEnd(width)}  ${t.summary}\n`);
  return `Which template?\n${rows.join("")}`;
}

export const TEMPLATE_PROMPT = "template [1]: ";

/** The template an answer names: its number, its name, or nothing (Enter) for the default; undefined when neither. */
export function templateOfAnswer(answer: string): Template | undefined {
  const text = answer.trim();
  if (text === "") return templateNamed(DEFAULT_TEMPLATE);
  if (/^\d+$/.test(text)) return TEMPLATES[Number(text) - 1];
  return templateNamed(text.toLowerCase());
}

/** Asks until an answer names a template; null when the input ends (Ctrl-D) or is interrupted (Ctrl-C) first. */
export function askTemplate(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<Template | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output });
    let chosen: Template | null = null;
    output.write(templateMenu());
    rl.setPrompt(TEMPLATE_PROMPT);
    rl.prompt();
    rl.on("line", (line) => {
      const template = templateOfAnswer(line);
      if (template === undefined) {
        output.write(`answer 1 to ${TEMPLATES.length} or a name (${TEMPLATES.map((t) => t.name).join(", ")})\n`);
        rl.prompt();
        return;
      }
      chosen = template;
      rl.close();
    });
    rl.on("SIGINT", () => rl.close());
    rl.on("close", () => {
      // Ctrl-D or Ctrl-C: end the prompt's line, so what follows starts on its own.
      if (chosen === null) output.write("\n");
      resolve(chosen);
    });
  });
}
