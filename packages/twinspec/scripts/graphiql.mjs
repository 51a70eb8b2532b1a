// The GraphiQL page's assets, prebuilt: esbuild bundles GraphiQL, React and graphql-sse's client into one minified
// script (plus GraphiQL's stylesheet) under assets/graphiql/, which the package ships and src/graphql/graphiql.ts
// serves as files. So React and GraphiQL are this package's devDependencies, not what a deployed application installs.
// Run by `npm run build` (and so by prepack); `twinspec build` in a checkout runs it when the assets are missing.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = fileURLToPath(new URL("..", import.meta.url));
const out = join(pkg, "assets/graphiql");
const require = createRequire(import.meta.url);
mkdirSync(out, { recursive: true });

// Queries and mutations over HTTP; subscriptions over SSE (/graphql/stream), as the server serves them.
const entry = `
import { createElement } from "react";
import { createRoot } from "react-dom/client";
import { GraphiQL } from "graphiql";
import { createGraphiQLFetcher } from "@graphiql/toolkit";
import { createClient } from "graphql-sse";
const http = createGraphiQLFetcher({ url: new URL("/graphql", location.href).href });
const sse = createClient({ url: new URL("/graphql/stream", location.href).href });
function fetcher(params, options) {
  if (!/(^|\\})\\s*subscription\\b/.test(params.query)) return http(params, options);
  return { subscribe: (sink) => ({ unsubscribe: sse.subscribe(params, sink) }) };
}
const query = new URLSearchParams(location.search).get("query") || undefined;
createRoot(document.getElementById("graphiql")).render(createElement(GraphiQL, { fetcher, defaultQuery: query }));
`;

const started = performance.now();
await build({
  stdin: { contents: entry, resolveDir: pkg, loader: "js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  define: { "process.env.NODE_ENV": '"production"' },
  legalComments: "none",
  outfile: join(out, "graphiql.js"),
  logLevel: "warning",
});
copyFileSync(join(dirname(require.resolve("graphiql/package.json")), "graphiql.min.css"), join(out, "graphiql.css"));
console.error(`bundled assets/graphiql in ${Math.round(performance.now() - started)} ms`);
