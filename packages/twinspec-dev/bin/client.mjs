// `twinspec client build|prepack|postpack`, run in an application's client/ folder (its package.json's scripts):
// compiles client/generated to dist/ (ESM and .d.ts), and around `npm pack` puts the twinspec-client runtime into
// client/node_modules for bundleDependencies, so the tarball installs anywhere with nothing but the registry's
// packages. A checkout of Twinspec (the runtime's sources beside it) compiles the runtime first.
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { inCheckout, removeOrphans, tsc } from "twinspec/build";

const dir = process.cwd();
const require = createRequire(join(dir, "package.json"));
const RUNTIME = "twinspec-client";

function runtimeDir() {
  return realpathSync(dirname(require.resolve(`${RUNTIME}/package.json`)));
}

const compile = (project, what) => tsc(project, what, require.resolve("typescript/bin/tsc"));

function build() {
  const runtime = runtimeDir();
  if (inCheckout(runtime)) compile(join(runtime, "tsconfig.build.json"), RUNTIME);
  compile(join(dir, "tsconfig.json"), "the client package");
  removeOrphans(join(dir, "dist"), join(dir, "generated"));
}

/** The runtime's own dependencies must be the client's too: npm installs none for a bundled package. */
function checkDependencies(runtime) {
  const own = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const needed = JSON.parse(readFileSync(join(runtime, "package.json"), "utf8")).dependencies ?? {};
  const missing = Object.entries(needed).filter(([name]) => !own.dependencies?.[name]);
  if (missing.length)
    throw new Error(
      `client/package.json lacks what ${RUNTIME} needs: add ${missing.map(([n, v]) => `"${n}": "${v}"`).join(", ")} to its dependencies`,
    );
  if (!own.bundleDependencies?.includes(RUNTIME))
    throw new Error(`client/package.json must list "${RUNTIME}" in bundleDependencies`);
}

function prepack() {
  build();
  const runtime = runtimeDir();
  checkDependencies(runtime);
  const into = join(dir, "node_modules", RUNTIME);
  rmSync(into, { recursive: true, force: true });
  for (const entry of ["package.json", "README.md", "dist"]) {
    if (existsSync(join(runtime, entry)))
      cpSync(join(runtime, entry), join(into, entry), { recursive: true, filter: (f) => !f.endsWith(".tsbuildinfo") });
  }
}

function postpack() {
  rmSync(join(dir, "node_modules", RUNTIME), { recursive: true, force: true });
  // prepack made the folder for the runtime alone: left empty, it goes too.
  if (existsSync(join(dir, "node_modules")) && readdirSync(join(dir, "node_modules")).length === 0)
    rmSync(join(dir, "node_modules"), { recursive: true });
}

const commands = { build, prepack, postpack };
const command = commands[process.argv[3]];
if (!command) {
  console.error("usage: twinspec client build|prepack|postpack   (in the application's client/ folder)");
  process.exitCode = 2;
} else {
  try {
    command();
  } catch (error) {
    console.error(`twinspec: ${error.message}`);
    process.exitCode = 1;
  }
}
