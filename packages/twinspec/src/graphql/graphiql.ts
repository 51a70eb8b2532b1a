// GraphiQL at GET /graphql for browsers, entirely from our own server (no CDN; works offline): one prebuilt script
// (GraphiQL, React and graphql-sse's client, bundled by esbuild when the package is built: scripts/graphiql.mjs) and
// GraphiQL's stylesheet, shipped under assets/graphiql/ — no React or GraphiQL among the runtime's dependencies.
// Subscriptions work in the IDE too, over SSE. Assets live under /graphql/assets/.
import { readFileSync } from "node:fs";
import type { Middleware } from "koa";
import { ownFile } from "../paths.js";

/** The package's assets/graphiql/. */
const ASSET_DIR = ownFile("assets/graphiql/");

const ASSETS: Record<string, { file: string; type: string }> = {
  "graphiql.css": { file: `${ASSET_DIR}graphiql.css`, type: "text/css" },
  "graphiql.js": { file: `${ASSET_DIR}graphiql.js`, type: "text/javascript" },
};

export const graphiqlPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Twinspec GraphiQL</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.css">
<style>body { margin: 0; } #graphiql { height: 100vh; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="/graphql/assets/graphiql.js"></script>
</body>
</html>
`;

/** A browser navigating here: it prefers HTML over the GraphQL media types. */
export function wantsHtml(accept: string): boolean {
  return accept.includes("text/html") && !accept.includes("application/graphql-response+json");
}

/** GET /graphql/assets/:name — read once, kept in memory, cacheable for a day. */
export function graphiqlAssets(): Middleware {
  const cache = new Map<string, Buffer>();
  return async (ctx, next) => {
    const name = ctx.params?.name as string | undefined;
    const asset = name ? ASSETS[name] : undefined;
    if (!asset || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    let body = cache.get(name!);
    if (body === undefined) cache.set(name!, (body = readFileSync(asset.file)));
    ctx.type = `${asset.type}; charset=utf-8`;
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = body;
  };
}
