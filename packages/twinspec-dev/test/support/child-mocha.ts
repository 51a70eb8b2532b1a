// A spec file run by mocha in a process of its own, as an application's `npm test` would run the kit: with tsx and
// the twinspec-source condition, without this package's .mocharc, against the project TWINSPEC_ROOT names. The kit's
// own tests use it where a run must fail (a planted bug) and its output be read.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";

export interface ChildMocha {
  /** the mocha file, relative to the package's folder */
  file: string;
  /** the project the kit reads (TWINSPEC_ROOT) */
  root: string;
  /** the environment over this process's and TWINSPEC_ROOT */
  env?: Record<string, string>;
  /** the child's working folder (default this process's) */
  cwd?: string;
  /** only the tests whose titles match */
  grep?: string;
  /** mocha's per-test timeout (ms; default 30 000) */
  testTimeout?: number;
  /** how long the whole run may take (ms; default 120 000) */
  timeout?: number;
}

/** Runs the file; resolves to its exit status and its output, stdout then stderr, without colour. */
export function childMocha(options: ChildMocha): { status: number | null; output: string } {
  const mocha = createRequire(import.meta.url).resolve("mocha/bin/mocha.js");
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions",
      "twinspec-source",
      mocha,
      "--no-config",
      "--no-package",
      "--exit",
      "--timeout",
      String(options.testTimeout ?? 30_000),
      ...(options.grep ? ["--grep", options.grep] : []),
      resolve(options.file),
    ],
    {
      cwd: options.cwd,
      encoding: "utf8",
      env: { ...process.env, TWINSPEC_ROOT: options.root, ...options.env },
      timeout: options.timeout ?? 120_000,
    },
  );
  // Read as plain text: npm test in a terminal forwards FORCE_COLOR, and the callers match mocha's lines.
  return { status: child.status, output: stripVTControlCharacters(child.stdout + child.stderr) };
}
