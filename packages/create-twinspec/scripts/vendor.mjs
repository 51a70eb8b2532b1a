// create-twinspec's prepack, first half: the tarballs a new application installs Twinspec from, made fresh into
// vendor/ (`npm pack` in each package, which builds it): twinspec (the runtime, the application's dependency),
// twinspec-dev (the CLI and test kit, its devDependency) and twinspec-client (its client package's runtime).
// `create-twinspec` copies them into the new application's vendor/ and names them there, so that application installs
// with nothing but the npm registry, on any machine, and its `npm ci --omit=dev` deploys from the runtime alone.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const vendor = join(here, "vendor");
rmSync(vendor, { recursive: true, force: true });
mkdirSync(vendor);
for (const name of ["twinspec", "twinspec-client", "twinspec-dev"]) {
  const run = spawnSync("npm", ["pack", "--silent", "--pack-destination", vendor], {
    cwd: join(here, "..", name),
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (run.status !== 0) {
    console.error(`create-twinspec: npm pack of ${name} failed; see above`);
    process.exit(1);
  }
}
