// A subcommand's arguments, parsed by node:util's parseArgs with -h/--help added: what was given, or the exit code
// when the command is done already (0 after printing the usage for --help, 2 after printing the error and the usage).
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What was given: each option's value (a string or a boolean, by its type) and the positional arguments. */
export interface CommandArgs<O extends Options> {
  values: { [K in keyof O]?: O[K]["type"] extends "boolean" ? boolean : string };
  positionals: string[];
}

export function commandArgs<O extends Options>(argv: string[], options: O, usage: string): CommandArgs<O> | number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}
