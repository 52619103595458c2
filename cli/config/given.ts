// Reading the settings one source gives, by the rows of knobs.ts: the command line (each flag, else
// its environment variable) and strand.toml (the keys of its [server], [replication] and [cluster]
// tables). Each value is checked here, once, as it is read.
import type { TomlValue } from "smol-toml";
import type { ConfigReader } from "./config-reader.js";
import { FlagError } from "./knob-values.js";
import { type GivenSettings, knobRows, type SectionName, type TomlTableName } from "./knobs.js";

function emptyGiven(): GivenSettings {
  return { server: {}, frontDoor: {}, store: {}, replication: {}, cluster: {} } as GivenSettings;
}

/** One section's values as a plain record, to be filled by key. */
function sectionOf(given: GivenSettings, section: SectionName): Record<string, unknown> {
  return given[section] as Record<string, unknown>;
}

/**
 * The values the command line gives: `values` as node:util parseArgs read them (by flag name
 * without the dashes), each flag that is absent taken from its environment variable (an empty
 * variable counts as unset). `flags`: the flags this command takes.
 */
export function givenByFlags(values: Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv, flags: ReadonlySet<string>): GivenSettings {
  const given = emptyGiven();
  for (const { section, key, knob } of knobRows()) {
    if (knob.flag === undefined || !flags.has(knob.flag)) continue;
    const written = values[knob.flag.slice(2)];
    let text: string | undefined;
    if (written !== undefined) {
      if (typeof written !== "string" || written === "") throw new FlagError(`${knob.flag} needs a value`);
      text = written;
    } else {
      const fromEnv = knob.env === undefined ? undefined : env[knob.env];
      text = fromEnv === undefined || fromEnv === "" ? undefined : fromEnv;
    }
    if (text !== undefined) sectionOf(given, section)[key] = knob.value.fromFlag(text, knob.flag);
  }
  return given;
}

/** Reads the keys of one strand.toml table (`[server]`, ...) into `given`; the reader collects the errors. */
export function readGivenTable(table: ConfigReader<TomlValue>, name: TomlTableName, given: GivenSettings): void {
  for (const { section, key, knob } of knobRows()) {
    if (knob.toml?.[0] !== name) continue;
    const value = knob.value.fromFile(table, knob.toml[1]);
    if (value !== undefined) sectionOf(given, section)[key] = value;
  }
}

/** The keys a strand.toml table takes, in the table's order (for "unknown key (known: ...)"). */
export function tomlKeys(name: TomlTableName): string[] {
  return knobRows().flatMap(({ knob }) => (knob.toml?.[0] === name ? [knob.toml[1]] : []));
}

/** A fresh record of what no source gave yet. */
export function noneGiven(): GivenSettings {
  return emptyGiven();
}

/** Whether a source gave any value at all. */
export function givesAny(given: GivenSettings): boolean {
  return Object.values(given).some((section) => Object.values(section).some((v) => v !== undefined));
}
