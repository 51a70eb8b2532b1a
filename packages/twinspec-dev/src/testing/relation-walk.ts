// The N+1 walk: every relation of the specs (generated/contract.ts relations: a field listing a resource under its
// paired REST collection, or naming one instance through its paired lookup) is read under a few parents, then under many, in one GraphQL document each, and what the
// relation itself costs in database queries (db_queries_total on /metrics: the document with it, less the same
// document without it) must not grow with the number of parents. The parents are reached from the schema alone:
// a root field listing them, or listing what lists them, with no required argument.
import assert from "node:assert/strict";
import {
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLSchema,
} from "graphql";
import { describe } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import { call, gql } from "./client.js";
// Guarded: a world that cannot be made, or a relation that cannot be read, while a stub answers is pending, not failed.
import { after, before, it } from "./pending.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf } from "./spec.js";
import { ADMIN_SUBJECT, token } from "./tokens.js";

/** How the N+1 walk runs; every field is optional. */
export interface RelationWalkOptions {
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
  /** worlds (one instance of every resource each, with its own owner) made before the first reading (default 2) */
  few?: number;
  /** worlds made in all, before the second reading (default 8) */
  many?: number;
}

/**
 * Registers the N+1 walk over every relation of the application's specs (a mocha suite): what reading a relation
 * costs in database queries must not grow with the number of parents. Nothing is registered without relations.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - how many worlds and the server's options (`RelationWalkOptions`); default none
 */
export function describeRelationWalk(definition: AppDefinition, options: RelationWalkOptions = {}): void {
  const spec = specOf(definition);
  const { relations, resources } = definition.contract;
  const { few = 2, many = 8 } = options;
  const coordinates = Object.keys(relations);
  if (coordinates.length === 0) return;

  describe("GraphQL relations are batched: what one costs does not grow with its parents (N+1 walk)", function () {
    this.timeout(120_000);
    let s: TestServer;
    let admin = "";
    const costs = new Map<string, { few: Cost; many: Cost }>();

    before(async () => {
      s = await startServer(definition, { quiet: true, ...options.server });
      admin = await token(ADMIN_SUBJECT, [...new Set([...Object.keys(definition.contract.scopes), "admin"])].join(" "));
      for (let n = 0; n < few; n++) await spec.newWorld(s.url);
      // One after another: the counter is the server's, shared by every request.
      const readAll = async () => {
        const read = new Map<string, Cost>();
        for (const c of coordinates) read.set(c, await costOf(c));
        return read;
      };
      const first = await readAll();
      for (let n = few; n < many; n++) await spec.newWorld(s.url);
      const second = await readAll();
      for (const c of coordinates) costs.set(c, { few: first.get(c)!, many: second.get(c)! });
    });
    after(() => s?.close());

    /** What reading the relation costs under every parent the schema reaches, and how many parents that is. */
    async function costOf(coordinate: string): Promise<Cost> {
      const [typeName, fieldName] = coordinate.split(".");
      const path = pathTo(spec.graphqlSchema, typeName);
      assert.ok(
        path,
        `no root field lists ${typeName} (or what lists it) without a required argument: the N+1 walk cannot reach ${coordinate}`,
      );
      const childId = resources[relations[coordinate].resource].id;
      const document = (leaf: string) => `{ ${path.reduceRight((inner, field) => `${field} { ${inner} }`, leaf)} }`;
      const queries = async (leaf: string) => {
        // The least of five readings: a query of background work (a job poll, a rate limit's flush) does not count
        // against the relation.
        let least = Infinity;
        let parents = 0;
        for (let n = 0; n < 5; n++) {
          const before = await counter(s);
          const res = await gql(s.url, document(leaf), undefined, { token: admin });
          const after = await counter(s);
          assert.equal(res.json.errors, undefined, `${document(leaf)}: ${res.text}`);
          least = Math.min(least, after - before);
          parents = count(res.json.data, path.length);
        }
        return { least, parents };
      };
      const without = await queries("__typename");
      const withRelation = await queries(`__typename ${fieldName} { ${childId} }`);
      return {
        queries: withRelation.least - without.least,
        parents: withRelation.parents,
        document: document(`__typename ${fieldName} { ${childId} }`),
      };
    }

    for (const coordinate of coordinates) {
      it(`${coordinate} costs as many queries under many parents as under a few`, () => {
        const { few: a, many: b } = costs.get(coordinate)!;
        assert.ok(
          b.parents > a.parents,
          `the walk reached ${b.parents} parents after more worlds, ${a.parents} before: it cannot compare`,
        );
        // One query of background noise is tolerated; one per parent is not (the walk makes parents grow far more).
        assert.ok(
          b.parents - a.parents >= 3,
          `the walk reached ${a.parents} parents, then ${b.parents}: too few more to tell`,
        );
        assert.ok(
          b.queries <= a.queries + 1,
          `${coordinate}: ${a.queries} queries under ${a.parents} parents, ${b.queries} under ${b.parents} — one per parent (N+1)? (${b.document})`,
        );
      });
    }
  });
}

interface Cost {
  queries: number;
  parents: number;
  /** the document that read it */
  document: string;
}

async function counter(s: TestServer): Promise<number> {
  const { text } = await call(`${s.url}/metrics`);
  const line = text.split("\n").find((l) => l.startsWith("db_queries_total "));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

/** How many objects sit `depth` lists deep in `data`. */
function count(data: unknown, depth: number): number {
  const values = Object.values(data as Record<string, unknown>);
  let level: unknown[] = values.flatMap((v) => (Array.isArray(v) ? v : [v]));
  for (let d = 1; d < depth; d++)
    level = level.flatMap((o) =>
      Object.values(o as Record<string, unknown>)
        .filter(Array.isArray)
        .flat(),
    );
  return level.length;
}

/** The fields from a root list down to lists of `target`, each a list without a required argument (shortest first). */
function pathTo(schema: GraphQLSchema, target: string): string[] | undefined {
  const listsWithoutArgs = (field: GraphQLField<unknown, unknown>) =>
    isListType(getNullableType(field.type)) &&
    isObjectType(getNamedType(field.type)) &&
    field.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined);
  const root = schema.getQueryType();
  const queue: { type: string; path: string[] }[] = Object.values(root?.getFields() ?? {})
    .filter(listsWithoutArgs)
    .map((f) => ({ type: getNamedType(f.type).name, path: [f.name] }));
  const seen = new Set<string>();
  while (queue.length) {
    const { type, path } = queue.shift()!;
    if (type === target) return path;
    if (seen.has(type)) continue;
    seen.add(type);
    const object = schema.getType(type);
    if (!isObjectType(object)) continue;
    for (const f of Object.values(object.getFields()).filter(listsWithoutArgs))
      queue.push({ type: getNamedType(f.type).name, path: [...path, f.name] });
  }
  return undefined;
}
