// Two transports, one truth: every REST collection paired with a GraphQL relation (x-graphql: Author.notes on
// listAuthorNotes) must list the same items in the same order as the relation, for a handful of parents — each
// parent given a few children, made over the API. A difference names the relation, the operation, the parent and
// both lists.
import assert from "node:assert/strict";
import { describe } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import { call, gql } from "./client.js";
import { asking } from "./coverage.js";
import { after, before, it } from "./pending.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf, urlOf } from "./spec.js";

/** How the transports are compared; every field is optional. */
export interface TransportAgreementOptions {
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
  /** parents compared (default 3) */
  parents?: number;
  /** children made under each (default 3) */
  children?: number;
}

/**
 * Registers the comparison of every REST collection with its paired GraphQL relation (a mocha suite): the same items
 * in the same order, under each of a handful of parents. Nothing is registered without such a pair.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - how many parents and children, and the server's options (`TransportAgreementOptions`); default none
 */
export function describeTransportAgreement(definition: AppDefinition, options: TransportAgreementOptions = {}): void {
  const spec = specOf(definition);
  const { relations, resources, pairs } = definition.contract;
  const { parents = 3, children = 3 } = options;
  const compared = spec.operations.flatMap((op) => {
    const coordinate = pairs[op.operationId];
    const relation = coordinate ? relations[coordinate] : undefined;
    if (op.method !== "GET" || !relation || relation.kind !== "list") return [];
    const [type, field] = coordinate.split(".");
    const parent = Object.entries(resources).find(([, r]) => r.schema === type);
    const lookup = parent && spec.operations.find((o) => o.method === "GET" && o.path === parent[1].path);
    const root = lookup ? pairs[lookup.operationId] : undefined;
    return parent && root?.startsWith("Query.")
      ? [{ op, coordinate, field, relation, parent: parent[1], root: root.slice("Query.".length) }]
      : [];
  });
  if (compared.length === 0) return;

  describe("two transports, one truth: each REST collection lists what its paired GraphQL relation lists", function () {
    this.timeout(120_000);
    let s: TestServer;
    before(async () => (s = await startServer(definition, options.server)));
    after(() => s?.close());

    for (const { op, coordinate, field, relation, parent, root } of compared) {
      it(`${op.operationId} (${op.method} ${op.path}) and ${coordinate}`, async () => {
        const childId = resources[relation.resource].id;
        // What makes a child under the parent: the collection's own POST, else the resource's creator.
        const creator =
          spec.operations.find((o) => o.method === "POST" && o.path === op.path) ?? spec.creatorOf(relation.resource);
        for (let n = 0; n < parents; n++) {
          const { ids } = await spec.newWorld(s.url);
          for (let c = 0; c < children; c++) {
            const made = await spec.send(s.url, creator, ids, {
              expect: [201, 202],
              step: `transport agreement: another ${relation.resource} (${creator.operationId})`,
            });
            assert.ok(
              made.status < 300,
              `making another ${relation.resource} with ${creator.operationId}: ${made.status} ${made.text.slice(0, 300)}`,
            );
            if (made.status === 202) await spec.settle(s.url, made.headers.get("location")!);
          }
          const url = `${urlOf(op, ids)}?limit=100`;
          const rest = await call(`${s.url}${url}`, {
            headers: asking(`transport agreement: ${op.operationId}`, [200]),
          });
          assert.equal(rest.status, 200, `${op.operationId} (GET ${url}): ${rest.status} ${rest.text.slice(0, 300)}`);
          const items = (Array.isArray(rest.json) ? rest.json : rest.json?.items) as
            | Record<string, unknown>[]
            | undefined;
          assert.ok(
            Array.isArray(items) && items.length > 0,
            `${op.operationId} (GET ${url}) lists nothing to compare after ${children} ${relation.resource} made with ${creator.operationId}: ${rest.text.slice(0, 300)}`,
          );
          const query = `query ($id: ID!) { parent: ${root}(${parent.id}: $id) { ${field} { ${childId} } } }`;
          const answer = await gql(s.url, query, { id: ids[parent.id] });
          const listed = answer.json?.data?.parent?.[field] as Record<string, unknown>[] | undefined;
          assert.ok(
            Array.isArray(listed),
            `${coordinate} (${query}, ${parent.id} ${ids[parent.id]}) answered no list: ${answer.text.slice(0, 300)}`,
          );
          assert.deepEqual(
            listed.map((i) => i[childId]),
            items.map((i) => i[childId]),
            `${coordinate} and ${op.operationId} (GET ${url}) list other ${relation.resource} for ${parent.id} ${ids[parent.id]}: GraphQL (${query}) lists ${JSON.stringify(listed.map((i) => i[childId]))}, REST ${JSON.stringify(items.map((i) => i[childId]))}`,
          );
        }
      });
    }
  });
}
