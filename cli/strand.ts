#!/usr/bin/env node
// The `strand` command line. Exit codes: 0 success, 1 the project or the server failed, 2 bad usage.
import { parseCommand, type Command } from "./commands/args.js";
import { fsErrorMessage, isFsError } from "./project/fs-errors.js";
import { ProjectError } from "./project/sources.js";
import { COMMAND_NAMES, commandHelp, USAGE, UsageError, usageLine } from "./commands/usage.js";

// Commands are imported on demand: the compiler (and TypeScript with it) loads only when needed.
async function run(command: Command): Promise<number> {
  switch (command.kind) {
    case "help":
      process.stdout.write(command.command === undefined ? USAGE : commandHelp(command.command));
      return 0;
    case "version":
      process.stdout.write(`strand ${(await import("./project/version.js")).strandVersion()}\n`);
      return 0;
    case "init":
      return (await import("./commands/init.js")).runInit(command);
    case "check":
      return (await import("./commands/check.js")).runCheck(command.dir);
    case "compile":
      return (await import("./commands/compile.js")).runCompile(command.dir, command.outDir, command.runtimeImport);
    case "serve":
      return (await import("./commands/serve.js")).runServe(command);
    case "mcp":
      return (await import("./commands/mcp.js")).runMcp(command);
    case "memory":
      return (await import("./commands/memory.js")).runMemory(command);
    case "memory-import":
      return (await import("./commands/memory.js")).runMemoryImport(command);
    case "verify":
      return (await import("./commands/verify.js")).runVerify(command.dataDir);
    case "backup":
      return (await import("./commands/backup.js")).runBackup(command.dataDir, command.out);
    case "restore":
      return (await import("./commands/backup.js")).runRestore(command.backup, command.dataDir);
    case "import":
      return (await import("./commands/import.js")).runImport(command);
    case "export":
      return (await import("./commands/export.js")).runExport(command);
    case "status":
      return (await import("./commands/status.js")).runStatus(command);
    case "query":
      return (await import("./commands/query.js")).runQuery(command);
    case "shell":
      return (await import("./commands/shell.js")).runShell(command);
    case "keys":
      return (await import("./commands/keys.js")).runKeys(command.keys);
    case "tenant":
      return (await import("./commands/tenant.js")).runTenant(command.tenant);
  }
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One line naming the culprit, then the command's usage line: the whole usage is ~90 lines.
    const name = process.argv[2];
    const known = name !== undefined && COMMAND_NAMES.includes(name) ? name : undefined;
    process.stderr.write(`strand: ${error.message}\n${usageLine(known)}`);
    return 2;
  }
  try {
    return await run(command);
  } catch (error) {
    if (error instanceof ProjectError) {
      process.stderr.write(`strand: ${error.message}\n`);
      return 1;
    }
    // A file where a directory should be, no permission, a full disk: the user's to fix, not a bug.
    if (isFsError(error)) {
      process.stderr.write(`strand: ${fsErrorMessage(error)}\n`);
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`strand: unexpected failure\n${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
