// The authorization matrix for REST, driven by the application's openapi.yaml: every secured operation (its
// `security` scopes, and whose data it acts on — x-resource owners) with no token (401), a token lacking the scope
// (403), another owner's token (403 where the data is owned), and the right token (neither). It grows by itself when
// the specs do.
import assert from "node:assert/strict";
import { describe } from "mocha";
import { after, before, it } from "./pending.js";
import type { AppDefinition } from "twinspec/internals";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf, urlOf, type Operation } from "./spec.js";
import { token } from "./tokens.js";

/** How the authorization matrices run; every field is optional. */
export interface AuthMatrixOptions {
  /** operationIds (REST) or coordinates ("Query.books", GraphQL) the specs leave public on purpose (default none) */
  public?: readonly string[];
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

const scopesOf = (op: Operation) => op.security[0].flatMap((r) => r.scopes);

/** A token and what it carries, so that a failure names it. */
export interface Caller {
  subject: string;
  scopes: string;
  token: string;
}

/** A token of `subject` carrying `scopes` (space-separated). */
export const caller = async (subject: string, scopes: string): Promise<Caller> => ({
  subject,
  scopes,
  token: await token(subject, scopes),
});
/** How a failure names a token: its subject and scopes. */
export const tokenName = (c: Caller): string => `the token of "${c.subject}" with scopes "${c.scopes}"`;

/**
 * The tokens both matrices send past "no token" and "no scopes": another owner's — carrying the needed scopes but
 * never `admin`, which acts for every owner — refused when the operation or field is admin-only or acts on owned data;
 * and the right one: admin for what is admin-only or acts on every owner's data, else the owner's own.
 */
export async function callers(
  scopes: readonly string[],
  ownership: "none" | "collection" | "instance",
  owner: string,
  other: string,
  someScope: string,
): Promise<{ someoneElse: Caller; elseRefused: boolean; right: Caller }> {
  const adminOnly = scopes.includes("admin");
  const plain = scopes.filter((x) => x !== "admin");
  const someoneElse = await caller(other, plain.join(" ") || someScope);
  const right =
    adminOnly || ownership === "collection"
      ? await caller("ops", "admin")
      : await caller(ownership === "instance" ? owner : other, scopes.join(" "));
  return { someoneElse, elseRefused: adminOnly || ownership !== "none", right };
}

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
    after(() => s?.close());

    for (const op of secured) {
      const scopes = scopesOf(op);
      const ownership = restOwnership[op.operationId];
      it(`${op.operationId} (${op.method} ${op.path}, needs ${scopes.join(" ")}, acts on ${ownership.kind === "none" ? "nobody's data" : ownership.kind === "collection" ? `every ${ownership.resource}` : `one ${ownership.resource}'s owner's data`})`, async () => {
        // Fresh resources for each operation, so destructive ones do not disturb the others.
        const { owner, other, ids } = await newWorld(s.url);
        const step = (who: string) => `REST authorization matrix: ${op.operationId} with ${who}`;
        const as = async (c: Caller | null, expect: readonly number[] | "any") => {
          const res = await send(s.url, op, ids, {
            token: c ? c.token : null,
            expect,
            step: step(c ? tokenName(c) : "no token"),
          });
          return {
            ...res,
            what: `${op.operationId} (${op.method} ${urlOf(op, ids)}) with ${c ? tokenName(c) : "no token"} answered ${res.status}: ${res.text.slice(0, 300)}`,
          };
        };

        const none = await as(null, [401]);
        assert.equal(none.status, 401, `expected 401: ${none.what}`);
        assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="twinspec"', none.what);
        assert.equal(none.headers.get("content-type"), "application/problem+json", none.what);

        const lacking = await as(await caller(owner, ""), [403]);
        assert.equal(lacking.status, 403, `expected 403: ${lacking.what}`);
        assert.match(
          lacking.headers.get("www-authenticate")!,
          /^Bearer realm="twinspec", error="insufficient_scope", scope="[^"]+"$/,
          lacking.what,
        );

        const {
          someoneElse: elseCaller,
          elseRefused,
          right: rightCaller,
        } = await callers(scopes, ownership.kind, owner, other, someScope);
        const someoneElse = await as(elseCaller, elseRefused ? [403] : "any");
        if (elseRefused)
          assert.equal(
            someoneElse.status,
            403,
            `expected 403 (${scopes.includes("admin") ? "admin-only" : "another owner's data"}): ${someoneElse.what}`,
          );
        else
          assert.ok(
            ![401, 403].includes(someoneElse.status),
            `nobody owns it, expected neither 401 nor 403: ${someoneElse.what}`,
          );

        const right = await as(rightCaller, "any");
        assert.ok(
          ![401, 403].includes(right.status) && right.status < 500,
          `the right token, expected neither 401, 403 nor 5xx: ${right.what}`,
        );
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
