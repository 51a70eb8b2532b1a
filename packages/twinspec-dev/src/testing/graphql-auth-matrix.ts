// The authorization matrix for GraphQL, driven by the application's specs: every protected root field of
// schema.graphql (its @auth scopes, and whose data it acts on — x-resource owners) with no token (UNAUTHENTICATED), a
// token lacking the scope (FORBIDDEN), another owner's token (FORBIDDEN where the data is owned), and the right token
// (neither) — each time with the rest of `data` intact. Input arguments take the sample body of the paired REST
// operation. Also: an invalid token refuses the whole request, introspection and GraphiQL's page need no token.
import assert from "node:assert/strict";
import { isNonNullType, type GraphQLField } from "graphql";
import { describe } from "mocha";
import { after, before, it } from "./pending.js";
import type { AppDefinition } from "twinspec/internals";
import { call, gql } from "./client.js";
import { caller, callers, tokenName, type AuthMatrixOptions, type Caller } from "./rest-auth-matrix.js";
import { startServer, type TestServer } from "./server.js";
import { fieldCall, specOf } from "./spec.js";

function scopesOf(field: GraphQLField<unknown, unknown>): string[] | undefined {
  const directive = field.astNode?.directives?.find((d) => d.name.value === "auth");
  const list = directive?.arguments?.find((a) => a.name.value === "scopes")?.value;
  return list?.kind === "ListValue" ? list.values.map((v) => (v.kind === "StringValue" ? v.value : "")) : undefined;
}

const codes = (res: { json: { errors?: { extensions?: { code?: string } }[] } }) =>
  (res.json.errors ?? []).map((e) => e.extensions?.code);

/**
 * Registers the GraphQL authorization matrix over every protected root Query and Mutation field (a mocha suite): no
 * token UNAUTHENTICATED, a token lacking the scope FORBIDDEN, another owner's token FORBIDDEN where the data is
 * owned, the right token neither.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - public fields and the server's options (`AuthMatrixOptions`); default none
 */
export function describeGraphqlAuthMatrix(definition: AppDefinition, options: AuthMatrixOptions = {}): void {
  const { graphqlSchema: schema, argumentValues, newWorld } = specOf(definition);
  const { graphqlOwnership, scopes: allScopes } = definition.contract;
  /** a scope another owner's token may carry, for a field that needs none but admin */
  const someScope = Object.keys(allScopes).find((x) => x !== "admin") ?? "";
  const types = [schema.getQueryType(), schema.getMutationType()].filter((t) => t !== null && t !== undefined);
  const roots = types.flatMap((type) =>
    Object.values(type.getFields())
      .map((field) => ({ root: type.name as "Query" | "Mutation", field, scopes: scopesOf(field) }))
      .filter(
        (f): f is { root: "Query" | "Mutation"; field: GraphQLField<unknown, unknown>; scopes: string[] } =>
          f.scopes !== undefined,
      ),
  );

  /** An operation calling just this field (its required arguments and those naming `ids`), and `ok: __typename`. */
  function operation(root: string, field: GraphQLField<unknown, unknown>, ids: Record<string, string>) {
    const all = argumentValues(root, field, ids);
    const values = Object.fromEntries(
      field.args
        .filter((a) => (isNonNullType(a.type) || a.name in ids) && a.name in all)
        .map((a) => [a.name, all[a.name]]),
    );
    return fieldCall(root, field, values, { alias: "target", also: "ok: __typename" });
  }

  describe("GraphQL authorization matrix (every protected root field of schema.graphql)", () => {
    let s: TestServer;
    before(async () => (s = await startServer(definition, options.server)));
    after(() => s?.close());

    for (const { root, field, scopes } of roots) {
      it(`${root}.${field.name} (needs ${scopes.join(" ")})`, async () => {
        const { owner, other, ids } = await newWorld(s.url);
        const { query, variables } = operation(root, field, ids);
        const send = async (c: Caller | null) => {
          const res = await gql(s.url, query, variables, { token: c ? c.token : "" });
          return Object.assign(res, {
            what: `${root}.${field.name} with ${c ? tokenName(c) : "no token"}: ${query} ${JSON.stringify(variables)} answered ${res.text.slice(0, 300)}`,
          });
        };

        const none = await send(null);
        assert.deepEqual(codes(none), ["UNAUTHENTICATED"], `expected UNAUTHENTICATED: ${none.what}`);
        // A nullable field is nulled alone; a non-null one nulls data as GraphQL requires.
        if (!isNonNullType(field.type))
          assert.equal(none.json.data?.ok, root, `the rest of data is intact: ${none.what}`);

        const lacking = await send(await caller(owner, ""));
        assert.deepEqual(codes(lacking), ["FORBIDDEN"], `expected FORBIDDEN: ${lacking.what}`);

        const ownership = graphqlOwnership[`${root}.${field.name}`];
        const {
          someoneElse: elseCaller,
          elseRefused,
          right: rightCaller,
        } = await callers(scopes, ownership.kind, owner, other, someScope);
        const someoneElse = await send(elseCaller);
        if (elseRefused)
          assert.deepEqual(
            codes(someoneElse),
            ["FORBIDDEN"],
            `expected FORBIDDEN (${scopes.includes("admin") ? "admin-only" : "another owner's data"}): ${someoneElse.what}`,
          );
        else
          assert.ok(
            !codes(someoneElse).some((c) => c === "UNAUTHENTICATED" || c === "FORBIDDEN"),
            `nobody owns it, expected neither UNAUTHENTICATED nor FORBIDDEN: ${someoneElse.what}`,
          );

        const right = await send(rightCaller);
        assert.ok(
          !codes(right).some((c) => c === "UNAUTHENTICATED" || c === "FORBIDDEN"),
          `the right token, expected neither UNAUTHENTICATED nor FORBIDDEN: ${right.what}`,
        );
      });
    }

    it("a sent token that is invalid refuses the whole request with 401", async () => {
      const res = await gql(s.url, `{ __typename }`, undefined, { token: "not.a.token" });
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate")!, /invalid_token/);
      assert.equal(res.json.errors[0].extensions.code, "UNAUTHENTICATED");
    });

    it("introspection and GraphiQL's page need no token", async () => {
      const res = await gql(s.url, `{ __schema { queryType { name } } }`, undefined, { token: "" });
      assert.deepEqual(res.json.data, { __schema: { queryType: { name: "Query" } } });
      const page = await call(`${s.url}/graphql`, { headers: { accept: "text/html" }, anonymous: true });
      assert.equal(page.status, 200);
    });

    it(`covers every root Query and Mutation field (none is public${options.public?.length ? ` but ${options.public.join(", ")}` : ""})`, () => {
      const all = types.flatMap((type) => Object.keys(type.getFields()).map((name) => `${type.name}.${name}`));
      const protectedOnes = roots.map(({ root, field }) => `${root}.${field.name}`);
      assert.deepEqual(
        all.filter((c) => !protectedOnes.includes(c)),
        all.filter((c) => options.public?.includes(c)),
      );
    });
  });
}
