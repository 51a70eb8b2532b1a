// `node scripts/siblings.mjs NAME…`, run by this package's prepack: builds each named workspace package that this
// one's build reads (twinspec's declarations) or its tarball bundles (twinspec-client's dist/), unless its dist/ is
// already newer than everything it is built from. So `npm pack -w twinspec -w twinspec-client -w twinspec-dev`, whose
// prepacks run in that order, builds each package once, and `npm pack -w twinspec-dev` alone still builds all three.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { newest } from "twinspec/build";

const workspaces = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const modified = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

for (const name of process.argv.slice(2)) {
  const dir = join(workspaces, name);
  const inputs = Math.max(
    newest(join(dir, "src")),
    newest(join(dir, "scripts")),
    ...["package.json", "tsconfig.build.json", "../../tsconfig.json"].map((file) => modified(join(dir, file))),
  );
  if (newest(join(dir, "dist")) > inputs) continue;
  const run = spawnSync("npm", ["run", "-s", "build"], { cwd: dir, stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
