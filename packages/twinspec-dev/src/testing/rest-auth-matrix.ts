// The authorization matrix for REST, driven by the application's openapi.yaml: every secured operation (its
// `security` scopes, and whose data it acts on — x-resource owners) with no token (401), a token lacking the scope
// (403), another owner's token (403 where the data is owned), and the right token (neither). It grows by itself when
// the specs do.
import assert from "node:assert/strict";
import { after, describe } from "mocha";
import { before, it } from "./pending.js";
import type { AppDefinition } from "twinspec/internals";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf, type Operation } from "./spec.js";
import { token } from "./tokens.js";

/** How the authorization matrices run; every field is optional. */
export interface AuthMatrixOptions {
  /** operationIds (REST) or coordinates ("Query.books", GraphQL) the specs leave public on purpose (default none) */
  public?: readonly string[];
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

const scopesOf = (op: Operation) => op.security[0].flatMap((r) => r.scopes);

/**
 * Registers the REST authorization matrix over every secured operation (a mocha suite): no token 401, a token
 * lacking the scope 403, another owner's token 403 where the data is owned, the right token neither.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - public operations and the server's options (`AuthMatrixOptions`); default none
 */
export function describeRestAuthMatrix(definition: AppDefinition, options: AuthMatrixOptions = {}): void {
  const { operations, send, newWorld } = specOf(definition);
  const { restOwnership, scopes: allScopes } = definition.contract;
  const secured = operations.filter((op) => op.security.length > 0 && op.security.every((alt) => alt.length > 0));
  /** a scope an owner's token may carry, for an operation that needs none but admin */
  const someScope = Object.keys(allScopes).find((x) => x !== "admin") ?? "";

  describe("REST authorization matrix (every secured operation of openapi.yaml)", () => {
    let s: TestServer;
    before(async () => (s = await startServer(definition, options.server)));
    after(() => s.close());

    for (const op of secured) {
      const scopes = scopesOf(op);
      const ownership = restOwnership[op.operationId];
      it(`${op.operationId} (${op.method} ${op.path}, needs ${scopes.join(" ")}, acts on ${ownership.kind === "none" ? "nobody's data" : ownership.kind === "collection" ? `every ${ownership.resource}` : `one ${ownership.resource}'s owner's data`})`, async () => {
        // Fresh resources for each operation, so destructive ones do not disturb the others.
        const { owner, other, ids } = await newWorld(s.url);
        const as = async (t: string | null) => send(s.url, op, ids, { token: t });

        const none = await as(null);
        assert.equal(none.status, 401, `no token: ${none.text}`);
        assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="twinspec"');
        assert.equal(none.headers.get("content-type"), "application/problem+json");

        const lacking = await as(await token(owner, ""));
        assert.equal(lacking.status, 403, `token without scopes: ${lacking.text}`);
        assert.match(lacking.headers.get("www-authenticate")!, /^Bearer realm="twinspec", error="insufficient_scope", scope="[^"]+"$/);

        const plain = scopes.filter((x) => x !== "admin");
        const someoneElse = await as(await token(other, plain.join(" ") || someScope));
        if (ownership.kind === "none" && plain.length === scopes.length) assert.ok(![401, 403].includes(someoneElse.status), `nobody owns it: ${someoneElse.text}`);
        else assert.equal(someoneElse.status, 403, `another owner's token: ${someoneElse.text}`);

        const rightToken = ownership.kind === "instance" && !scopes.includes("admin") ? await token(owner, scopes.join(" ")) : ownership.kind === "none" && !scopes.includes("admin") ? await token(other, scopes.join(" ")) : await token("ops", "admin");
        const right = await as(rightToken);
        assert.ok(![401, 403].includes(right.status), `right token: ${right.status} ${right.text}`);
        assert.ok(right.status < 500, `right token: ${right.status} ${right.text}`);
      });
    }

    it(`covers every operation of the spec (none is public${options.public?.length ? ` but ${options.public.join(", ")}` : ""})`, () => {
      assert.deepEqual(
        operations.filter((op) => !secured.includes(op)).map((op) => op.operationId),
        operations.filter((op) => options.public?.includes(op.operationId)).map((op) => op.operationId),
      );
    });
  });
}
