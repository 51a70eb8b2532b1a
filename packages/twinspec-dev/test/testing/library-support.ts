// The library application of the kit's tests (test/apps/library), and its one-line test (test/api.test.ts: walkApi)
// run in a child mocha against a copy of it, as its own `npm test` would.
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { childMocha } from "../support/child-mocha.js";

/** The application, as committed. */
export const LIBRARY = resolve("test/apps/library");

/**
 * Runs the application's walkApi test: only the tests whose titles match `grep`, if given; compiled, unless
 * `typescript` (as its own npm test runs it, through tsx: where the output names the test file).
 */
export function runLibrary(
  root: string,
  { grep, env = {}, typescript }: { grep?: string; env?: Record<string, string>; typescript?: boolean } = {},
) {
  return childMocha({
    file: join(root, "test/api.test.ts"),
    root,
    cwd: root,
    env,
    grep,
    typescript,
    testTimeout: 120_000,
    timeout: 540_000,
  });
}

/**
 * A copy of the application in a folder of its own under test/.tmp (inside the repository, so that it resolves
 * twinspec and twinspec-dev as the original does), removed by `remove`. `edit` changes one of its files.
 */
export function libraryCopy(name: string) {
  const base = resolve("test/.tmp");
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, `library-${name}-`));
  cpSync(LIBRARY, dir, { recursive: true, filter: (from) => !/[/\\](node_modules|data)$/.test(from) });
  return {
    dir,
    /** Replaces `from` (which must be there) with `to` in the copy's `file`. */
    edit(file: string, from: string | RegExp, to: string) {
      const path = join(dir, file);
      const text = readFileSync(path, "utf8");
      const changed = text.replace(from, to);
      if (changed === text) throw new Error(`${file}: nothing to replace (${String(from)})`);
      writeFileSync(path, changed);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
