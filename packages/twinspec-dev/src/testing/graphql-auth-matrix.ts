// The authorization matrix for GraphQL, driven by the application's specs: every protected root field of
// schema.graphql (its @auth scopes, and whose data it acts on — x-resource owners) with no token (UNAUTHENTICATED), a
// token lacking the scope (FORBIDDEN), another owner's token (FORBIDDEN where the data is owned), and the right token
// (neither) — each time with the rest of `data` intact. Input arguments take the sample body of the paired REST
// operation. Also: an invalid token refuses the whole request, introspection and GraphiQL's page need no token.
import assert from "node:assert/strict";
import { isNonNullType, type GraphQLField } from "graphql";
import { after, describe } from "mocha";
import { before, it } from "./pending.js";
import type { AppDefinition } from "twinspec/internals";
import { call, gql } from "./client.js";
import type { AuthMatrixOptions } from "./rest-auth-matrix.js";
import { startServer, type TestServer } from "./server.js";
import { fieldCall, specOf } from "./spec.js";
import { token } from "./tokens.js";

function scopesOf(field: GraphQLField<unknown, unknown>): string[] | undefined {
  const directive = field.astNode?.directives?.find((d) => d.name.value === "auth");
  const list = directive?.arguments?.find((a) => a.name.value === "scopes")?.value;
  return list?.kind === "ListValue" ? list.values.map((v) => (v.kind === "StringValue" ? v.value : "")) : undefined;
}

const codes = (res: { json: { errors?: { extensions?: { code?: string } }[] } }) => (res.json.errors ?? []).map((e) => e.extensions?.code);

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
  const { graphqlOwnership } = definition.contract;
  const types = [schema.getQueryType(), schema.getMutationType()].filter((t) => t !== null && t !== undefined);
  const roots = types.flatMap((type) =>
    Object.values(type.getFields())
      .map((field) => ({ root: type.name as "Query" | "Mutation", field, scopes: scopesOf(field) }))
      .filter((f): f is { root: "Query" | "Mutation"; field: GraphQLField<unknown, unknown>; scopes: string[] } => f.scopes !== undefined),
  );

  /** An operation calling just this field (its required arguments and those naming `ids`), and `ok: __typename`. */
  function operation(root: string, field: GraphQLField<unknown, unknown>, ids: Record<string, string>) {
    const all = argumentValues(root, field, ids);
    const values = Object.fromEntries(field.args.filter((a) => (isNonNullType(a.type) || a.name in ids) && a.name in all).map((a) => [a.name, all[a.name]]));
    return fieldCall(root, field, values, { alias: "target", also: "ok: __typename" });
  }

  describe("GraphQL authorization matrix (every protected root field of schema.graphql)", () => {
    let s: TestServer;
    before(async () => (s = await startServer(definition, options.server)));
    after(() => s.close());

    for (const { root, field, scopes } of roots) {
      it(`${root}.${field.name} (needs ${scopes.join(" ")})`, async () => {
        const { owner, other, ids } = await newWorld(s.url);
        const { query, variables } = operation(root, field, ids);
        const send = (t: string) => gql(s.url, query, variables, { token: t });

        const none = await send("");
        assert.deepEqual(codes(none), ["UNAUTHENTICATED"], none.text);
        // A nullable field is nulled alone; a non-null one nulls data as GraphQL requires.
        if (!isNonNullType(field.type)) assert.equal(none.json.data?.ok, root, "the rest of data is intact");

        const lacking = await send(await token(owner, ""));
        assert.deepEqual(codes(lacking), ["FORBIDDEN"], lacking.text);

        const ownership = graphqlOwnership[`${root}.${field.name}`];
        const someoneElse = await send(await token(other, scopes.join(" ")));
        if (ownership.kind === "none") assert.ok(!codes(someoneElse).some((c) => c === "UNAUTHENTICATED" || c === "FORBIDDEN"), `nobody owns it: ${someoneElse.text}`);
        else assert.deepEqual(codes(someoneElse), ["FORBIDDEN"], someoneElse.text);

        const right = await send(ownership.kind === "instance" ? await token(owner, scopes.join(" ")) : ownership.kind === "none" ? await token(other, scopes.join(" ")) : await token("ops", "admin"));
        assert.ok(!codes(right).some((c) => c === "UNAUTHENTICATED" || c === "FORBIDDEN"), right.text);
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
