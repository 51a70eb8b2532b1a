// A subcommand's arguments, parsed by node:util's parseArgs with -h/--help added: what was given, or the exit code
// when the command is done already (0 after printing the usage for --help, 2 after printing the error and the usage).
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP = { help: { type: "boolean", short: "h" } } as const;

export function commandArgs<O extends Options>(argv: string[], options: O, usage: string) {
  let parsed;
  try {
    parsed = parseArgs<{ args: string[]; allowPositionals: true; options: O & typeof HELP }>({ args: argv, allowPositionals: true, options: { ...options, ...HELP } });
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
