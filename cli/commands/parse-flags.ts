// Parsing one command's flags (node:util parseArgs) with the CLI's own words for bad input: the
// culprit and the closest valid flag, as a UsageError (exit 2). Shared by args.ts and the commands
// whose arguments are parsed beside it (access-args.ts).
import { type ParseArgsConfig, parseArgs } from "node:util";
import { closestName } from "../../core/suggest.js";
import { optionsOfCommand, UsageError } from "./usage.js";

export type Flags = NonNullable<ParseArgsConfig["options"]>;
type Parsed<F extends Flags> = ReturnType<typeof parseArgs<{ args: string[]; options: F; allowPositionals: true; strict: true }>>;

export function parse<F extends Flags>(command: string, args: string[], options: F): Parsed<F> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseArgsProblem(command, error as NodeJS.ErrnoException));
  }
}

/** parseArgs' complaint in the words of the rest of the CLI: the culprit, and the closest valid flag. */
function parseArgsProblem(command: string, error: NodeJS.ErrnoException): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? "";
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const flag = quoted.split("=")[0]!;
    const near = flag.startsWith("--") ? closestName(flag, optionsOfCommand(command)) : undefined;
    return `unknown option ${flag} for strand ${command}${near === undefined ? "" : `; did you mean ${near}?`}`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    // "Option '--port <value>' argument missing" or "Option '-h, --help' does not take an argument".
    const flag = quoted.split(" ")[0]!.replace(/,$/, "");
    const long = quoted.split(" ").find((word) => word.startsWith("--")) ?? flag;
    return error.message.includes("does not take") ? `${long} takes no value` : `${long} needs a value`;
  }
  return error.message;
}

/** A flag's value, undefined when absent; a flag given without a value is a usage error. */
export function nonEmpty(flag: string, value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") throw new UsageError(`${flag} needs a value`);
  return value;
}
