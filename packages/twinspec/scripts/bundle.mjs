// The package's JavaScript: esbuild bundles each public entry point (package.json "exports") from src/, with the
// pure-JavaScript libraries it serves with (Koa, @koa/router, pino, prom-client, graphql-http, graphql-ws, graphql-jit,
// jose, …) compiled in and their shared code split into dist/chunks/. What stays a real dependency is what cannot or
// must not be copied: better-sqlite3 (a native addon), graphql and kysely (an application imports them too, and each
// must be one instance in the process), and the optional peers (pg, the OpenTelemetry SDK). So a deployed application
// installs 3 packages' trees for the runtime, not 150, and Node loads a few files at start instead of a thousand.
// tsc writes the .d.ts beside them (tsconfig.build.json, declarations only). The bundled libraries' licences are
// collected into dist/THIRD-PARTY-LICENSES.md. Run by `npm run build` (and so by prepack and `twinspec build`).
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
const dist = join(pkg, "dist");

/** dist/index.js ← src/index.ts, …: every entry point package.json exports, by the file its "default" names. */
const entryPoints = Object.fromEntries(
  Object.values(manifest.exports)
    .filter((target) => typeof target === "object" && target["twinspec-source"])
    .map((target) => [
      target.default.replace(/^\.\/dist\//, "").replace(/\.js$/, ""),
      join(pkg, target["twinspec-source"]),
    ]),
);

/** Left to node_modules: the package's dependencies and peers, and ws's optional native helpers. */
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.peerDependencies ?? {}),
  "pg-native",
  "bufferutil",
  "utf-8-validate",
];

/**
 * @opentelemetry/api: prom-client requires it, and is bundled with it; tracing.ts must share one instance with the
 * SDK the application installs (the API registers the tracer provider in a global keyed by its version), so there it
 * stays an import of the application's own copy.
 */
const otelApi = {
  name: "otel-api",
  setup(b) {
    b.onResolve({ filter: /^@opentelemetry\/api$/ }, (args) =>
      args.importer.includes("/node_modules/prom-client/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** The JavaScript an earlier build left (entry files, chunks, maps); the .d.ts tsc writes stay. */
function clean(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) clean(path);
    else if (/\.(js|mjs)(\.map)?$/.test(entry.name)) rmSync(path);
  }
  if (dir !== dist && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
}

const started = performance.now();
clean(dist);
const result = await build({
  entryPoints,
  absWorkingDir: pkg,
  outdir: dist,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: external.filter((name) => name !== "@opentelemetry/api"),
  plugins: [otelApi],
  // CommonJS libraries inside an ES module bundle call require() for Node's built-ins and the externals.
  banner: {
    js: 'import { createRequire as __twinspecRequire } from "node:module";\nconst require = __twinspecRequire(import.meta.url);',
  },
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

// Each bundled library once, with its licence text.
const libraries = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
  if (!match || libraries.has(match[2])) continue;
  const dir = join(pkg, match[1]);
  const found = existsSync(dir) ? readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f)) : undefined;
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  libraries.set(match[2], {
    version: meta.version,
    license: meta.license ?? "see its package",
    text: found ? readFileSync(join(dir, found), "utf8").trim() : "",
  });
}
const sections = [...libraries]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, l]) => `## ${name} ${l.version} (${l.license})\n\n${l.text}\n`);
writeFileSync(
  join(dist, "THIRD-PARTY-LICENSES.md"),
  `# Libraries bundled into twinspec's dist/\n\n${sections.join("\n")}`,
);

const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.error(
  `bundled ${relative(process.cwd(), dist) || "dist"}: ${Object.keys(entryPoints).length} entry points, ${libraries.size} libraries, ${(bytes / 1048576).toFixed(1)} MB, in ${Math.round(performance.now() - started)} ms`,
);
