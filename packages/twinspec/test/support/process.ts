// The fixture's server as a process of its own, as `npm start` runs an application: its src/main.ts (or another
// entry) compiled, on node against the package's dist/ (twinspec-dev's test/support/compiled.ts: one copy of the
// fixture per test process, built first when a source is newer), in the copy's folder, TWINSPEC_ROOT naming it.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { compiledCopy, type CompiledCopy } from "../../../twinspec-dev/test/support/compiled.js";
import { spawnServer, type ServerProcess } from "../../../twinspec-dev/src/testing/process.js";
import { FIXTURE } from "./fixture.js";

export type { ServerProcess } from "../../../twinspec-dev/src/testing/process.js";

let fixture: CompiledCopy | undefined;

/** The compiled copy of the fixture this process starts its servers from, removed when the process exits. */
function compiledFixture(): CompiledCopy {
  if (!fixture) {
    const copy = (fixture = compiledCopy(FIXTURE, false));
    process.on("exit", () => copy.remove());
  }
  return fixture;
}

/** The arguments of node that run `entry` (default src/main.ts) of the compiled fixture. */
const fixtureArgs = (entry = "src/main.ts"): string[] => [
  "--enable-source-maps",
  compiledFixture().file(join(FIXTURE, entry)),
];

export const startProcess = (env: Record<string, string>, entry?: string): Promise<ServerProcess> =>
  spawnServer(process.execPath, fixtureArgs(entry), {
    cwd: compiledFixture().dir,
    env: { TWINSPEC_ROOT: compiledFixture().dir, ...env },
  });

/** The compiled fixture's src/main.ts run to its end, for a start that must stop: its exit status and output. */
export const runFixture = (env: Record<string, string>) =>
  spawnSync(process.execPath, fixtureArgs(), {
    cwd: compiledFixture().dir,
    env: { ...process.env, TWINSPEC_ROOT: compiledFixture().dir, DATABASE_URL: "sqlite::memory:", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
