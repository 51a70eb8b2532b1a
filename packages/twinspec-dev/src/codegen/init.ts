// `twinspec init <dir> [--openapi FILE] [--graphql FILE] [--twinspec SPEC] [--vendor DIR]`: a new application built with Twinspec,
// like `gqlgen init`: the layout every application has (package.json, codegen.yml, the two specs, src/, test/),
// from the user's specs or the starter pair (one resource, notes), with `generate` run so that every stub exists.
// In the new folder `npm install && npm test && npm start` pass with no edit: the stubs answer 501 / NOT_IMPLEMENTED,
// which the test kit reports as not yet implemented.
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { basename, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { commandArgs } from "./args.js";
import { packageRoot } from "./package-root.js";

const TEMPLATES = join(packageRoot(), "templates");

const USAGE = `usage: twinspec init <dir> [--openapi FILE] [--graphql FILE] [--twinspec SPEC] [--vendor DIR]

  --openapi, --graphql  your API's two specs (both, or neither: then a starter pair with one resource, notes)
  --twinspec            how the new package.json names the runtime, twinspec (default: the tarball npm exec ran, else ^VERSION)
  --vendor              a folder of the packages' tarballs (twinspec, twinspec-dev, twinspec-client), copied into the
                        new application's vendor/ and named from there (create-twinspec passes its own)`;

/** The versions this package is tested with: what a new application installs beside it (the runtime's, the CLI's). */
const PINNED = ["graphql", "kysely"] as const;
/** What the code `generate` writes requires at run time: generated/validators.cjs, ajv's standalone code, requires its runtime helpers and ajv-formats' formats. */
const GENERATED_NEEDS = ["ajv", "ajv-formats"] as const;
const PINNED_DEV = ["tsx", "typescript"] as const;
const DEV = { mocha: "12.0.3", "@types/mocha": "10.0.10", "@types/node": "20.19.25" };

/**
 * Overrides every install of the generator needs (this repository's root package.json has the same; a test keeps
 * them equal): graphql-codegen's newer @graphql-tools/delegate needs a package the registry lacks (Twinspec's
 * DESIGN §5); its loaders' newest @whatwg-node/*, sync-fetch and listr2 declare Node >= 22.12-22.15, and these, the
 * releases before, have the same API and run on Node 20, so `npm install` warns of no engine; koa's koa-compose is
 * held at 4.1.0, as npm marks 4.2.0 deprecated.
 */
const OVERRIDES = {
  "@graphql-tools/delegate": "12.2.1",
  "@whatwg-node/disposablestack": "0.0.6",
  "@whatwg-node/fetch": "0.10.13",
  "@whatwg-node/promise-helpers": "1.3.2",
  "koa-compose": "4.1.0",
  listr2: "9.0.5",
  "sync-fetch": "0.6.0",
};

/** npm 11's allowScripts: the install scripts a new application's dependencies run (better-sqlite3's addon, tsx's esbuild binary). */
const ALLOW_SCRIPTS = { "better-sqlite3": true, esbuild: true };

function ownPackage(): { version: string; engines: { node: string }; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8"));
}

/** The runtime's package.json (twinspec): the versions of what it serves with. */
function runtimePackage(): { version: string; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(createRequire(import.meta.url).resolve("twinspec/package.json"), "utf8"));
}

/** The tarball of package `name` in the --vendor folder, copied into the new application's vendor/: its spec there. */
function vendored(name: string, from: string, dir: string): string | undefined {
  const tarball = readdirSync(from).find((f) => new RegExp(`^${name}-\\d[^/]*\\.tgz$`).test(f));
  if (!tarball) return undefined;
  mkdirSync(join(dir, "vendor"), { recursive: true });
  copyFileSync(join(from, tarball), join(dir, "vendor", tarball));
  return `file:vendor/${tarball}`;
}

/** A spec written relative to the application's folder, as client/package.json must name it (from client/). */
const fromClient = (spec: string) => spec.replace(/^file:vendor\//, "file:../vendor/");

/**
 * How the new app names package `name` (twinspec, twinspec-client): `npm exec --package <tarball>` (or npx) passes
 * the tarballs in npm_config_package, and the new app installs those; else ^VERSION.
 */
function packageSpec(name: string, env: NodeJS.ProcessEnv, version: string): string {
  const tarball = (env.npm_config_package ?? "")
    .split(/[\s,]+/)
    .find((p) => new RegExp(`(^|/)${name}-\\d[^/]*\\.tgz$`).test(p) && existsSync(p));
  return tarball ? `file:${resolve(tarball)}` : `^${version}`;
}

/** --twinspec SPEC: a tarball's path or any npm spec. */
const givenSpec = (given: string) => (/\.tgz$/.test(given) && existsSync(given) ? `file:${resolve(given)}` : given);

const npmName = (name: string) => name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-");

/**
 * client/package.json: the application's client package (the generated SDK and documents), built by its prepack
 * (`twinspec client prepack`), which bundles twinspec-client into the tarball; its dependencies are twinspec-client's.
 */
export function clientPackageJson(name: string, runtime: string): string {
  const { dependencies = {} } = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve("twinspec-client/package.json"), "utf8"),
  );
  return `${JSON.stringify(
    {
      name: `${npmName(name)}-client`,
      version: "0.1.0",
      description: `Typed clients of ${name}, generated from its openapi.yaml and schema.graphql`,
      type: "module",
      sideEffects: false,
      exports: {
        ".": { "twinspec-source": "./generated/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
        "./package.json": "./package.json",
      },
      files: ["dist/"],
      scripts: {
        build: "twinspec client build",
        prepack: "twinspec client prepack",
        postpack: "twinspec client postpack",
      },
      dependencies: sorted({
        ...dependencies,
        graphql: runtimePackage().dependencies.graphql,
        "twinspec-client": fromClient(runtime),
      }),
      bundleDependencies: ["twinspec-client"],
    },
    null,
    2,
  )}\n`;
}

const sorted = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/**
 * package.json: what a deployed application installs (`npm ci --omit=dev`) is the runtime (twinspec), graphql and kysely
 * at its versions, and ajv with ajv-formats, which the generated validators require;
 * the CLI, generator and test kit (twinspec-dev), the compiler, the client package and mocha are devDependencies.
 * `npm start` is the runtime's own `twinspec-app start`, which serves the compiled dist/app.
 */
export function packageJson(name: string, twinspec: string, runtime: string, dev = `^${ownPackage().version}`): string {
  const own = ownPackage();
  const pinned = Object.fromEntries([
    ...PINNED.map((d) => [d, runtimePackage().dependencies[d]]),
    ...GENERATED_NEEDS.map((d) => [d, own.dependencies[d]]),
  ]);
  const pinnedDev = Object.fromEntries(PINNED_DEV.map((d) => [d, own.dependencies[d]]));
  return `${JSON.stringify(
    {
      name: npmName(name),
      version: "0.1.0",
      private: true,
      type: "module",
      engines: own.engines,
      scripts: {
        generate: "twinspec generate",
        start: "twinspec-app start",
        build: "twinspec build",
        dev: "twinspec dev",
        test: "twinspec generate --check && npm run -s typecheck && mocha",
        // named by `npm start` when the server does not compile (twinspec's bin/build.mjs)
        typecheck: "tsc --noEmit",
        token: "twinspec token",
      },
      dependencies: sorted({ twinspec, ...pinned }),
      // The client package too, so the application's tests and scripts import it as callers do.
      devDependencies: sorted({
        "twinspec-dev": dev,
        "twinspec-client": runtime,
        [`${npmName(name)}-client`]: "file:client",
        ...pinnedDev,
        ...DEV,
      }),
      overrides: OVERRIDES,
      allowScripts: ALLOW_SCRIPTS,
    },
    null,
    2,
  )}\n`;
}

export async function initCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = commandArgs(
    argv,
    {
      openapi: { type: "string" },
      graphql: { type: "string" },
      twinspec: { type: "string" },
      vendor: { type: "string" },
    },
    USAGE,
  );
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  if (!values.openapi !== !values.graphql) {
    console.error(
      "twinspec init: give both --openapi and --graphql (every resource is served over both), or neither for the starter pair",
    );
    return 2;
  }
  for (const file of [values.openapi, values.graphql]) {
    if (file && !existsSync(file)) {
      console.error(`twinspec init: ${file}: no such file`);
      return 1;
    }
  }
  const dir = resolve(positionals[0]);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    console.error(`twinspec init: ${positionals[0]} exists and is not empty; name a new folder`);
    return 1;
  }
  const own = ownPackage();
  mkdirSync(join(dir, "src/migrations"), { recursive: true });
  cpSync(join(TEMPLATES, "app"), dir, { recursive: true });
  // Kept without their dot in the package (npm pack leaves .gitignore out), named as they must be here.
  for (const [from, to] of [
    ["gitignore", ".gitignore"],
    ["mocharc.json", ".mocharc.json"],
  ])
    renameSync(join(dir, from), join(dir, to));
  copyFileSync(values.openapi ?? join(TEMPLATES, "starter/openapi.yaml"), join(dir, "openapi.yaml"));
  copyFileSync(values.graphql ?? join(TEMPLATES, "starter/schema.graphql"), join(dir, "schema.graphql"));
  // The starter's business flow (Arazzo), which the test kit runs; an application of its own specs writes its own.
  if (!values.openapi)
    copyFileSync(join(TEMPLATES, "starter/workflows.arazzo.yaml"), join(dir, "workflows.arazzo.yaml"));
  const spec = (name: string) =>
    (values.vendor && vendored(name, values.vendor, dir)) || packageSpec(name, env, own.version);
  const runtime = spec("twinspec-client");
  const twinspec = values.twinspec ? givenSpec(values.twinspec) : spec("twinspec");
  writeFileSync(join(dir, "package.json"), packageJson(basename(dir), twinspec, runtime, spec("twinspec-dev")));
  writeFileSync(join(dir, "client/package.json"), clientPackageJson(basename(dir), runtime));
  mkdirSync(join(dir, "client/operations"), { recursive: true });
  if (!values.graphql)
    copyFileSync(join(TEMPLATES, "starter/notes.graphql"), join(dir, "client/operations/notes.graphql"));
  writeFileSync(
    join(dir, "src/migrations/README.md"),
    'Your migrations: one Kysely migration per file (NNN_name.ts exporting `up(db)`), applied in name order after\nTwinspec\'s own (jobs, idempotency keys, rate limits). Use `text(db)` and `bytes(db)` from "twinspec" for columns\nthat mean the same on SQLite and PostgreSQL.\n',
  );

  // generate, in the new folder: generated/ and a stub for every operation, field and resource.
  const { generateProject } = await import("./project.js");
  const cwd = process.cwd();
  process.chdir(dir);
  let ok: boolean;
  try {
    ok = await generateProject({
      log: (line) => console.log(`  ${line}`),
      error: (line) => console.error(`  ${line}`),
    });
  } finally {
    process.chdir(cwd);
  }
  if (!ok) {
    console.error(
      `twinspec init: ${positionals[0]} was created, but its specs do not generate yet: fix what is named above, then run \`npm run generate\` there`,
    );
    return 1;
  }
  const made = [
    "package.json",
    "codegen.yml",
    values.openapi
      ? "your openapi.yaml and schema.graphql"
      : "a starter openapi.yaml, schema.graphql and workflows.arazzo.yaml (notes)",
    "generated/",
    "a stub per operation and field in src/",
    "test/api.test.ts",
    "client/",
    ...(existsSync(join(dir, "vendor"))
      ? ["vendor/ (the tarballs of twinspec, twinspec-dev, twinspec-client: commit it)"]
      : []),
  ];
  console.log(
    `\ncreated ${positionals[0]}: ${made.join(", ")}.\nnext:\n  cd ${positionals[0]} && npm install\n  npm test && npm start     walks every operation (stubs reported as pending), then serves REST and GraphQL on http://127.0.0.1:3000`,
  );
  return 0;
}
