// The kit's server processes (src/testing/process.ts), in the fixture's folder: its src/main.ts (or another entry)
// runs as `npm start` runs an application (TWINSPEC_ROOT names the fixture too: test/support/root.ts).
import { startProcess as startKitProcess, type ServerProcess } from "../../../twinspec-dev/src/testing/process.js";
import { FIXTURE } from "./fixture.js";

export type { ServerProcess } from "../../../twinspec-dev/src/testing/process.js";

export const startProcess = (env: Record<string, string>, entry?: string): Promise<ServerProcess> =>
  startKitProcess(env, entry, { cwd: FIXTURE });
