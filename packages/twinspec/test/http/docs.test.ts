// /docs, /openapi.json, /openapi.yaml over real HTTP: the spec as written, and a docs page whose every asset
// comes from this server (no CDN, no online validator), so it works offline.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { FIXTURE } from "../support/fixture.js";
import { call, startServer, type TestServer } from "../support/server.js";

describe("API docs and the served spec", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("/openapi.yaml is openapi.yaml byte for byte, with a validator for revalidation", async () => {
    const res = await call(`${server.url}/openapi.yaml`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/yaml/);
    assert.equal(res.text, readFileSync(join(FIXTURE, "openapi.yaml"), "utf8"));
    const again = await call(`${server.url}/openapi.yaml`, { headers: { "If-None-Match": res.headers.get("etag")! } });
    assert.equal(again.status, 304);
  });

  it("/openapi.json is the same document as JSON", async () => {
    const res = await call(`${server.url}/openapi.json`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(res.json, parse(readFileSync(join(FIXTURE, "openapi.yaml"), "utf8")));
  });

  it("/docs is an HTML page whose scripts, styles and icon are all served here", async () => {
    const page = await call(`${server.url}/docs`, { headers: { accept: "text/html" } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.ok(refs.length >= 4, refs.join(" "));
    for (const ref of refs) {
      assert.match(ref, /^\/docs\//, `${ref} is served by this server, not a CDN`);
      const asset = await fetch(`${server.url}${ref}`);
      const body = Buffer.from(await asset.arrayBuffer());
      assert.equal(asset.status, 200, ref);
      assert.ok(body.length > 0, ref);
      assert.match(asset.headers.get("content-type") ?? "", /^(text\/css|text\/javascript|image\/png)/, ref);
    }
    const bundle = refs.find((r) => r.endsWith("swagger-ui-bundle.js"))!;
    const head = await fetch(`${server.url}${bundle}`, { method: "HEAD" });
    assert.ok(Number(head.headers.get("content-length")) > 500_000, "the real Swagger UI bundle");
    assert.match(head.headers.get("cache-control") ?? "", /immutable/);
  });

  it("the page loads the spec from this server and never calls the online validator", async () => {
    const init = await call(`${server.url}/docs/init.js`);
    assert.equal(init.status, 200);
    assert.match(init.text, /fetch\("\/openapi\.json"\)/);
    assert.match(init.text, /validatorUrl: null/);
    assert.doesNotMatch(init.text, /https?:\/\//);
  });

  it("only the page's own assets are served from the package", async () => {
    const page = await call(`${server.url}/docs`);
    const prefix = /"(\/docs\/assets\/[^/]+)\//.exec(page.text)![1];
    for (const path of [
      "package.json",
      "index.html",
      "..%2Fpackage.json",
      "swagger-ui-bundle.js.map",
      "VERSION",
      "LICENSE",
    ]) {
      assert.equal((await call(`${server.url}${prefix}/${path}`)).status, 404, path);
    }
  });

  // Swagger UI ships prebuilt in the package's assets/swagger-ui/ (scripts/swagger-ui.mjs at build time):
  // swagger-ui-dist is a devDependency, not what a deployed application installs.
  it("the assets are swagger-ui-dist's own files, under its version; swagger-ui-dist is no runtime dependency", async () => {
    const dist = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
    const { version } = JSON.parse(readFileSync(join(dist, "package.json"), "utf8"));
    const page = await call(`${server.url}/docs`);
    assert.ok(
      page.text.includes(`/docs/assets/${version}/swagger-ui-bundle.js`),
      "the URL carries the version it serves, for caching for good",
    );
    for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"]) {
      const res = await fetch(`${server.url}/docs/assets/${version}/${file}`);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dist, file))), file);
    }
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    assert.equal(manifest.dependencies["swagger-ui-dist"], undefined);
    assert.equal(manifest.devDependencies["swagger-ui-dist"], version);
  });
});
