// The service as a process of its own, as `npm start` runs it: node on the compiled dist/app/src/main.js, with no
// TypeScript loader: a process started through tsx spends most of its start-up in the loader's hooks, once per module
// it imports, and these suites start many. npm test builds once before its parts start, so that no part builds
// while another serves from dist/.
import { build, stale } from "../../packages/twinspec/bin/build.mjs";
import { spawnServer, type ServerProcess } from "twinspec-dev/testing";

let checked = false;

/** Builds dist/app when a source is newer than the last build, as `twinspec start` does; once per test process. */
export function ensureBuilt(): void {
  if (checked) return;
  if (stale()) build();
  checked = true;
}

/** src/main.ts, compiled, with the kit's test defaults under `env` (`startProcess`'s, without tsx). */
export function startProcess(env: Record<string, string>): Promise<ServerProcess> {
  ensureBuilt();
  return spawnServer(process.execPath, ["dist/app/src/main.js"], { env });
}
