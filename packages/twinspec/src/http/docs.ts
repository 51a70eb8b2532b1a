// The REST contract for people and tools: /openapi.yaml and /openapi.json serve openapi.yaml as written (with the
// Twinspec parts it includes merged in, src/parts/include.ts, when it includes some), /docs
// serves Swagger UI from this server (no CDN: it works offline): its bundle, stylesheet and icon, copied from
// swagger-ui-dist into the package's assets/swagger-ui/ when the package is built (scripts/swagger-ui.mjs), so
// swagger-ui-dist is not among the runtime's dependencies.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Router, RouterContext } from "@koa/router";
import { ownFile, projectFile } from "../paths.js";

/** The package's assets/swagger-ui/. */
const UI_DIR = ownFile("assets/swagger-ui/");
const ASSET_TYPES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/** swagger-ui-dist's version the assets were copied from; a build without them stops the start, saying why. */
function uiVersion(): string {
  const file = join(UI_DIR, "VERSION");
  if (!existsSync(file)) {
    throw new Error(
      `Swagger UI's assets are missing (${UI_DIR}): build the twinspec package (npm run build in packages/twinspec), or set DOCS=off`,
    );
  }
  return readFileSync(file, "utf8").trim();
}

/** The page; its asset URLs carry Swagger UI's version, so browsers may keep the files for good. */
function page(assets: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Twinspec REST API</title>
  <link rel="stylesheet" href="${assets}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${assets}/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;
}

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
    (made ??= Promise.resolve(make()).then((body) => ({
      body,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
    })));
}

/**
 * @param router - where the routes go
 * @param specFile - openapi.yaml
 * @param parts - the Twinspec parts it includes (ContractFacts.parts): served merged in; default none
 */
export function mountDocs(router: Router, specFile = projectFile("openapi.yaml"), parts: readonly string[] = []): void {
  // Read now: a spec missing from a deployment stops the start, not a later request.
  const source = readFileSync(specFile, "utf8");
  // CommonJS: `default` is its module.exports, under Node and in the bundle alike (see runtime/multipart.ts).
  const parsed = once(async () => {
    const doc = (await import("yaml")).default.parse(source);
    return JSON.stringify(parts.length ? (await import("../parts/include.js")).includeParts(doc) : doc);
  });
  const yaml = parts.length
    ? once(async () => (await import("yaml")).default.stringify(JSON.parse((await parsed()).body), { lineWidth: 0 }))
    : once(() => source);
  const json = parsed;
  const text = (made: ReturnType<typeof once>, type: string) => async (ctx: RouterContext) => {
    const { body, etag } = await made();
    ctx.type = type;
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", "public, no-cache");
    ctx.body = body;
  };

  router.get("/openapi.yaml", text(yaml, "application/yaml; charset=utf-8"));
  router.get("/openapi.json", text(json, "application/json; charset=utf-8"));
  const assets = `/docs/assets/${uiVersion()}`;
  router.get(
    "/docs",
    text(
      once(() => page(assets)),
      "text/html; charset=utf-8",
    ),
  );
  router.get(
    "/docs/init.js",
    text(
      once(() => INIT),
      "text/javascript; charset=utf-8",
    ),
  );
  router.get(`${assets}/:file`, (ctx) => {
    const type = ASSET_TYPES[ctx.params.file];
    if (!type) return; // only the files the page uses; anything else falls through to 404
    const path = join(UI_DIR, ctx.params.file);
    ctx.type = type;
    ctx.length = statSync(path).size;
    ctx.set("Cache-Control", "public, max-age=31536000, immutable");
    ctx.body = createReadStream(path);
  });
}
