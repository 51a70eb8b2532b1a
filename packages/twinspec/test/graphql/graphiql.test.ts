// GraphiQL for browsers at GET /graphql, with every asset served by this server from the prebuilt assets/graphiql/
// (scripts/graphiql.mjs; no CDN, no React at run time).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { call, startServer, type TestServer } from "../support/server.js";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("GraphiQL", () => {
  let s: TestServer;
  before(async function () {
    // A fresh checkout has not built the assets yet: the package's build does, as prepack does before packing.
    if (!existsSync(new URL("../../assets/graphiql/graphiql.js", import.meta.url))) {
      this.timeout(60_000);
      assert.equal(
        spawnSync(process.execPath, [new URL("../../scripts/graphiql.mjs", import.meta.url).pathname], {
          stdio: "inherit",
        }).status,
        0,
      );
    }
    s = await startServer();
  });
  after(() => s.close());

  it("a browser gets the IDE; API clients still get GraphQL", async () => {
    const page = await call(`${s.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /^text\/html/);
    assert.match(page.text, /<div id="graphiql">/);
    assert.doesNotMatch(page.text, /(https?:)?\/\/[a-z]/i, "no external (CDN) address");
    const api = await call(`${s.url}/graphql?query=${encodeURIComponent("{ __typename }")}`, {
      headers: { accept: "application/graphql-response+json" },
    });
    assert.deepEqual(api.json, { data: { __typename: "Query" } });
  });

  it("serves every script and stylesheet the page names, from our own server", async () => {
    const page = await call(`${s.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(assets, ["/graphql/assets/graphiql.css", "/graphql/assets/graphiql.js"]);
    for (const asset of assets) {
      const res = await call(`${s.url}${asset}`);
      assert.equal(res.status, 200, asset);
      assert.match(res.headers.get("content-type")!, asset.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      assert.ok(res.text.length > 500, asset);
    }
    const script = await call(`${s.url}/graphql/assets/graphiql.js`);
    assert.match(script.text, /\/graphql\/stream/, "subscriptions over SSE");
    assert.equal((await call(`${s.url}/graphql/assets/nope.js`)).status, 404);
  });
});
