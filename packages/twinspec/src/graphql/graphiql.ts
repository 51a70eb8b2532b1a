// GraphiQL at GET /graphql for browsers, entirely from npm packages on our own server (no CDN; works offline):
// graphiql 3's prebuilt UMD bundle + React 18's UMD builds (graphiql 5 ships only ESM that needs a bundler), and
// graphql-sse's UMD client so subscriptions work in the IDE too. Assets live under /graphql/assets/.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Middleware } from "koa";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const ASSETS: Record<string, { file: string; type: string }> = {
  "graphiql.min.css": { file: join(packageDir("graphiql"), "graphiql.min.css"), type: "text/css" },
  "graphiql.min.js": { file: join(packageDir("graphiql"), "graphiql.min.js"), type: "text/javascript" },
  "react.production.min.js": { file: join(packageDir("react"), "umd/react.production.min.js"), type: "text/javascript" },
  "react-dom.production.min.js": { file: join(packageDir("react-dom"), "umd/react-dom.production.min.js"), type: "text/javascript" },
  "graphql-sse.min.js": { file: join(packageDir("graphql-sse"), "umd/graphql-sse.min.js"), type: "text/javascript" },
};

// Queries and mutations over HTTP; subscriptions over SSE (/graphql/stream).
const BOOT = `(function () {
  var http = GraphiQL.createFetcher({ url: new URL("/graphql", location.href).href });
  var sse = graphqlSse.createClient({ url: new URL("/graphql/stream", location.href).href });
  function fetcher(params, options) {
    if (!/(^|\\})\\s*subscription\\b/.test(params.query)) return http(params, options);
    return { subscribe: function (sink) { return { unsubscribe: sse.subscribe(params, sink) }; } };
  }
  var query = new URLSearchParams(location.search).get("query") || undefined;
  ReactDOM.createRoot(document.getElementById("graphiql")).render(React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: query }));
})();
`;

export const graphiqlPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twinspec GraphiQL</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.min.css">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphql/assets/react.production.min.js"></script>
<script src="/graphql/assets/react-dom.production.min.js"></script>
<script src="/graphql/assets/graphiql.min.js"></script>
<script src="/graphql/assets/graphql-sse.min.js"></script>
<script src="/graphql/assets/boot.js"></script>
</body>
</html>
`;

/** A browser navigating here: it prefers HTML over the GraphQL media types. */
export function wantsHtml(accept: string): boolean {
  return accept.includes("text/html") && !accept.includes("application/graphql-response+json");
}

/** GET /graphql/assets/:name — read once, kept in memory, cacheable for a day. */
export function graphiqlAssets(): Middleware {
  const cache = new Map<string, Buffer | string>([["boot.js", BOOT]]);
  return async (ctx, next) => {
    const name = ctx.params?.name as string | undefined;
    const asset = name === "boot.js" ? { file: "", type: "text/javascript" } : name ? ASSETS[name] : undefined;
    if (!asset || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    let body = cache.get(name!);
    if (body === undefined) cache.set(name!, (body = readFileSync(asset.file)));
    ctx.type = `${asset.type}; charset=utf-8`;
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = body;
  };
}
