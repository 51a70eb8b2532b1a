// A spec file run by mocha in a process of its own, as an application's `npm test` would run the kit, without this
// package's .mocharc, against the project TWINSPEC_ROOT names. The kit's own tests use it where a run must fail (a
// planted bug) and its output be read. By default the project and the spec file run compiled (test/support/compiled.ts),
// against the packages' dist/ as an installed application has them; `typescript` runs them as written, with tsx and
// the twinspec-source condition.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { compiledCopy } from "./compiled.js";

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
  /** run the TypeScript sources through tsx, with the twinspec-source condition (default: compiled JavaScript) */
  typescript?: boolean;
}

/** Runs the file; resolves to its exit status and its output, stdout then stderr, without colour. */
export function childMocha(options: ChildMocha): { status: number | null; output: string } {
  const mocha = createRequire(import.meta.url).resolve("mocha/bin/mocha.js");
  const copy = options.typescript ? undefined : compiledCopy(resolve(options.root));
  const root = copy?.dir ?? options.root;
  const cwd = copy && options.cwd && resolve(options.cwd) === resolve(options.root) ? copy.dir : options.cwd;
  try {
    const child = spawnSync(
      process.execPath,
      [
        ...(copy ? ["--enable-source-maps"] : ["--import", "tsx", "--conditions", "twinspec-source"]),
        mocha,
        "--no-config",
        "--no-package",
        "--exit",
        "--timeout",
        String(options.testTimeout ?? 30_000),
        ...(options.grep ? ["--grep", options.grep] : []),
        copy ? copy.file(options.file) : resolve(options.file),
      ],
      {
        cwd,
        encoding: "utf8",
        env: { ...process.env, TWINSPEC_ROOT: root, ...options.env },
        timeout: options.timeout ?? 120_000,
      },
    );
    // Read as plain text: npm test in a terminal forwards FORCE_COLOR, and the callers match mocha's lines.
    return { status: child.status, output: stripVTControlCharacters(child.stdout + child.stderr) };
  } finally {
    copy?.remove();
  }
}
