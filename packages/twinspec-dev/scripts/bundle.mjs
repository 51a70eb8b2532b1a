// `node scripts/bundle.mjs prepack|postpack NAME…`, run in a package's folder around its `npm pack`: puts the named
// workspace packages (each as npm would pack it: package.json and its "files") into ./node_modules, where
// bundleDependencies takes them into the tarball, and takes them out again afterwards. So a tarball of twinspec-dev
// (or of create-twinspec) installs on a machine that reaches only the npm registry, although its own packages are
// on none. npm installs no dependency of a bundled package: the bundling package must declare them all, checked here.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const [command, ...names] = process.argv.slice(2);
const here = process.cwd();
const workspaces = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const json = (file) => JSON.parse(readFileSync(file, "utf8"));
const own = json(join(here, "package.json"));

function prepack() {
  for (const name of names) {
    const from = join(workspaces, name);
    const pkg = json(join(from, "package.json"));
    if (!own.bundleDependencies?.includes(name)) throw new Error(`${own.name}: list "${name}" in bundleDependencies`);
    const missing = Object.keys(pkg.dependencies ?? {}).filter((d) => !own.dependencies?.[d] && !names.includes(d));
    if (missing.length)
      throw new Error(
        `${own.name} bundles ${name}, so it must depend on what ${name} does: add ${missing.map((d) => `"${d}": "${pkg.dependencies[d]}"`).join(", ")}`,
      );
    const into = join(here, "node_modules", name);
    rmSync(into, { recursive: true, force: true });
    for (const entry of ["package.json", "README.md", ...(pkg.files ?? [])]) {
      const path = join(from, entry.replace(/\/$/, ""));
      if (existsSync(path))
        cpSync(path, join(into, entry), { recursive: true, filter: (f) => !f.endsWith(".tsbuildinfo") });
    }
  }
}

function postpack() {
  for (const name of names) rmSync(join(here, "node_modules", name), { recursive: true, force: true });
  if (existsSync(join(here, "node_modules")) && readdirSync(join(here, "node_modules")).length === 0)
    rmSync(join(here, "node_modules"), { recursive: true });
}

try {
  ({ prepack, postpack })[command]();
} catch (error) {
  console.error(`bundle: ${error.message}`);
  process.exitCode = 1;
}
