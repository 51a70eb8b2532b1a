// The REST contract for people and tools: /openapi.yaml and /openapi.json serve openapi.yaml as written, /docs
// serves Swagger UI from the swagger-ui-dist package on this server (no CDN: it works offline).
import { createHash } from "node:crypto";
import { createReadStream, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Router, RouterContext } from "@koa/router";
import { projectFile } from "../paths.js";

const UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const UI_VERSION: string = JSON.parse(readFileSync(join(UI_DIR, "package.json"), "utf8")).version;
/** The URL carries the package version, so browsers may keep the files for good. */
const ASSETS = `/docs/assets/${UI_VERSION}`;
const ASSET_TYPES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Twinspec REST API</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// "Try it out" calls the server that serves this page (the spec's servers are kept as alternatives);
// validatorUrl null stops Swagger UI's default call to an online validator.
const INIT = `fetch("/openapi.json").then((res) => res.json()).then((spec) => {
  spec.servers = [{ url: window.location.origin, description: "this server" }, ...(spec.servers || [])];
  window.ui = SwaggerUIBundle({ spec, dom_id: "#swagger-ui", deepLinking: true, persistAuthorization: true, validatorUrl: null });
});
`;

/** A text made once, on first use (the JSON form of the spec: no YAML parser loaded or run at start-up), with its ETag. */
function once(make: () => string | Promise<string>) {
  let made: Promise<{ body: string; etag: string }> | undefined;
  return () =>
    (made ??= Promise.resolve(make()).then((body) => ({ body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` })));
}

export function mountDocs(router: Router, specFile = projectFile("openapi.yaml")): void {
  // Read now: a spec missing from a deployment stops the start, not a later request.
  const source = readFileSync(specFile, "utf8");
  const yaml = once(() => source);
  const json = once(async () => JSON.stringify((await import("yaml")).parse(source)));
  const text = (made: ReturnType<typeof once>, type: string) => async (ctx: RouterContext) => {
    const { body, etag } = await made();
    ctx.type = type;
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", "public, no-cache");
    ctx.body = body;
  };

  router.get("/openapi.yaml", text(yaml, "application/yaml; charset=utf-8"));
  router.get("/openapi.json", text(json, "application/json; charset=utf-8"));
  router.get("/docs", text(once(() => PAGE), "text/html; charset=utf-8"));
  router.get("/docs/init.js", text(once(() => INIT), "text/javascript; charset=utf-8"));
  router.get(`${ASSETS}/:file`, (ctx) => {
    const type = ASSET_TYPES[ctx.params.file];
    if (!type) return; // only the files the page uses; anything else falls through to 404
    const path = join(UI_DIR, ctx.params.file);
    ctx.type = type;
    ctx.length = statSync(path).size;
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.body = createReadStream(path);
  });
}
