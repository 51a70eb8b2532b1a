// walkApi(definition): every operation of openapi.yaml and every root field of schema.graphql, sent to a real server
// (buildApp on 127.0.0.1, an ephemeral port, a fresh SQLite database) with the specs' own examples, against one
// instance of every resource. Each answer must be a status the operation declares, never a 500; a protected
// operation without a token must answer 401; a GraphQL field must never fail INTERNAL_SERVER_ERROR. A handler or
// resolver that is still a stub (501 / NOT_IMPLEMENTED) is reported as pending: not yet implemented, not failed.
import { fileURLToPath } from "node:url";
import { getNamedType, isCompositeType, isNonNullType, type GraphQLField } from "graphql";
import { describe } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import type { OperationSpec } from "twinspec/internals";
import { describeAbuseWalk, type AbuseWalkOptions } from "./abuse-walk.js";
import { statusCoverageGate, type CoverageOptions } from "./coverage.js";
import { describeGraphqlFuzz } from "./fuzz/graphql.js";
import { describeRestFuzz, type FuzzOptions } from "./fuzz/rest.js";
import { describeGraphqlAuthMatrix } from "./graphql-auth-matrix.js";
import { describeRestAuthMatrix, type AuthMatrixOptions } from "./rest-auth-matrix.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf } from "./spec.js";
import { describeRelationWalk } from "./relation-walk.js";
import { describeTransportAgreement, type TransportAgreementOptions } from "./transport-agreement.js";
import { describeStatusWalks } from "./status-walks.js";
import { describeScenarios, type ScenarioOptions } from "./scenarios.js";
import { describeRoundTrips, type RoundTripOptions } from "./round-trips.js";
import { describeWebhookWalk, type WebhookWalkOptions } from "./webhook-walk.js";
import { ADMIN_SUBJECT, token } from "./tokens.js";
import { replyOf, type Reply } from "./client.js";
import { asking } from "./coverage.js";
import { exchangeLine } from "./exchange.js";
import { after, before, it } from "./pending.js";
import { newWorld, specReader, urlOf } from "./world.js";

/** Where the API walk's test servers keep their data; every field is optional. */
export interface ApiWalkOptions {
  /** the application's migrations folder, a path or a file: URL (default: src/migrations of the project) */
  migrations?: string | URL;
  /** the database, shared by the walks' servers and never dropped (default: a fresh one per server, as every test server of the kit: see database.ts) */
  databaseUrl?: string;
}

/** What `walkApi` runs: every part on by default; `false` leaves one out, an object gives it options. */
export interface WalkOptions extends ApiWalkOptions {
  /** the authorization matrices (default run; false: not run) */
  authMatrices?: false | Omit<AuthMatrixOptions, "server">;
  /** the status walks (default run; false: not run) */
  statusWalks?: boolean;
  /** the write-read round trips of every resource with a reader and writers (default run; false: not run) */
  roundTrips?: false | Omit<RoundTripOptions, "server">;
  /** the REST and GraphQL fuzzers (default run; false: not run) */
  fuzz?: false | Omit<FuzzOptions, "server">;
  /** every REST collection compared with its paired GraphQL relation (default run; false: not run) */
  transportAgreement?: false | Omit<TransportAgreementOptions, "server">;
  /** the N+1 walk over every relation (default run; false: not run) */
  relationWalk?: boolean;
  /** the workflows of workflows.arazzo.yaml, run over REST and over GraphQL (default run when the file exists; false: not run) */
  scenarios?: false | Omit<ScenarioOptions, "server">;
  /** every declared webhook triggered through its x-emitted-by and its delivery checked (default run when openapi.yaml declares webhooks; false: not run) */
  webhookWalk?: false | Omit<WebhookWalkOptions, "server">;
  /** the abuse walk: hostile requests that must be refused with a code (default run; false: not run) */
  abuseWalk?: false | Omit<AbuseWalkOptions, "server">;
  /** the per-(operation, status) coverage gate, registered last (default run; false: not run) */
  coverageGate?: false | CoverageOptions;
}

/**
 * Everything the kit walks, registered as mocha suites in this order: the API walk (describeApiWalk), both
 * authorization matrices, the status walks, the scenarios of workflows.arazzo.yaml, the write-read round trips, the webhook walk, both fuzzers, the REST collections compared with their GraphQL relations, the N+1 walk over the relations, the abuse walk, and the per-(operation, status) coverage gate over what all
 * of them (and any test of the application that runs before, with the kit's startServer) produced. Call it at the
 * top level of a mocha test file (`walkApi(definition)`).
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - what to leave out or tune, and where the servers keep their data (`WalkOptions`); default everything
 */
export function walkApi(definition: AppDefinition, options: WalkOptions = {}): void {
  const server = serverOptions(options);
  describeApiWalk(definition, options);
  if (options.authMatrices !== false) {
    describeRestAuthMatrix(definition, { ...options.authMatrices, server });
    describeGraphqlAuthMatrix(definition, { ...options.authMatrices, server });
  }
  if (options.statusWalks !== false) describeStatusWalks(definition, { server });
  if (options.scenarios !== false) describeScenarios(definition, { ...options.scenarios, server });
  if (options.roundTrips !== false) describeRoundTrips(definition, { ...options.roundTrips, server });
  if (options.webhookWalk !== false) describeWebhookWalk(definition, { ...options.webhookWalk, server });
  if (options.fuzz !== false) {
    describeRestFuzz(definition, { ...options.fuzz, server });
    describeGraphqlFuzz(definition, { ...options.fuzz, server });
  }
  if (options.transportAgreement !== false)
    describeTransportAgreement(definition, { ...options.transportAgreement, server });
  if (options.relationWalk !== false) describeRelationWalk(definition, { server });
  if (options.abuseWalk !== false) describeAbuseWalk(definition, { ...options.abuseWalk, server });
  if (options.coverageGate !== false) statusCoverageGate(definition, options.coverageGate || {});
}

function serverOptions(options: ApiWalkOptions): TestServerOptions {
  const migrations = options.migrations instanceof URL ? fileURLToPath(options.migrations) : options.migrations;
  const { databaseUrl } = options;
  return {
    ...(migrations ? { store: { migrations } } : {}),
    ...(databaseUrl
      ? {
          database: {
            kind: databaseUrl.startsWith("postgres") ? "postgres" : "sqlite",
            url: databaseUrl,
            drop: async () => {},
          },
        }
      : {}),
  };
}

/**
 * The API walk: every operation and root field sent once with the specs' examples against one instance of every
 * resource; statuses declared, never a 500; 401 without a token; no INTERNAL_SERVER_ERROR; stubs pending.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - migrations folder and database (`ApiWalkOptions`); default none
 */
export function describeApiWalk(definition: AppDefinition, options: ApiWalkOptions = {}): void {
  const reader = specReader(specOf(definition).doc);
  const ops = definition.operationSpecs;
  let s: TestServer;
  let app: TestServer["app"];
  let base = "";
  let admin = "";
  let world: Awaited<ReturnType<typeof newWorld>>;
  /** what answered 501 / NOT_IMPLEMENTED: reported once at the end, as the test kit's "not yet implemented" */
  const stubs = new Set<string>();

  const request = async (
    method: string,
    path: string,
    init: { token?: string | null; body?: unknown; type?: string; expect?: readonly number[] } = {},
  ): Promise<Reply & { line: string }> => {
    // An event stream's 200 is acceptable too: its head is read, then it is closed (body.ts). Any declared status is
    // taken: luck, which counts for no coverage unless the step asks for one.
    const headers: Record<string, string> = {
      accept: "application/json, application/problem+json, text/event-stream;q=0.1",
      ...asking(`API walk: ${method} ${path}`, init.expect ?? "any"),
    };
    if (init.token !== null) headers.authorization = `Bearer ${init.token ?? admin}`;
    if (init.body !== undefined) headers["content-type"] = init.type ?? "application/json";
    const body =
      init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    const res = await fetch(`${base}${path}`, { method, headers, body, redirect: "manual" });
    const reply = await replyOf(res);
    // What a failure shows: the request as sent and what it answered.
    const who = init.token === null ? " (no token)" : "";
    return { ...reply, line: exchangeLine(method, `${path}${who}`, body, reply.status, reply.text) };
  };
  const send = (
    op: OperationSpec,
    ids: Record<string, string>,
    init: { token?: string | null; body?: unknown; expect?: readonly number[] } = {},
  ) => {
    const sample = reader.sampleBody(op);
    return request(op.method, urlOf(op, ids), {
      token: init.token,
      body: init.body ?? sample?.body,
      type: sample?.type,
      expect: init.expect,
    });
  };
  /** The sample body, with each property named like a resource's id set to the world's instance. */
  const bodyFor = (op: OperationSpec) => {
    const sample = reader.sampleBody(op)?.body;
    if (!sample || typeof sample !== "object" || Array.isArray(sample)) return sample;
    return Object.fromEntries(
      Object.entries(sample).map(([k, v]) => [k, world.byIdName.has(k) && world.ids[k] ? world.ids[k] : v]),
    );
  };

  describe("the API, walked from its specs (twinspec-dev/testing)", function () {
    this.timeout(30_000);

    before(async () => {
      s = await startServer(definition, serverOptions(options));
      app = s.app;
      base = s.url;
      admin = await token(ADMIN_SUBJECT, [...new Set([...Object.keys(definition.contract.scopes), "admin"])].join(" "));
      world = await newWorld(definition, reader, send);
    });

    after(async () => {
      if (stubs.size)
        console.log(
          `\n  not yet implemented (stubs answer 501 / NOT_IMPLEMENTED; pending above): ${[...stubs].join(", ")}`,
        );
      if (world?.missing.size)
        console.log(
          `  not made, so read with unknown ids: ${[...world.missing].map(([tag, why]) => `${tag} (${why})`).join(", ")}`,
        );
      await s?.close();
    });

    // DELETEs last: they remove the instances the other operations read.
    const ordered = [...ops].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    describe("REST: every operation answers a status it declares", () => {
      for (const op of ordered) {
        it(`${op.operationId} (${op.method} ${op.path})`, async function () {
          const res = await send(op, world.ids, { body: bodyFor(op) });
          if (res.status === 501) {
            stubs.add(op.operationId);
            this.skip();
          }
          if (res.status >= 500)
            throw new Error(`${op.operationId} failed with ${res.status} (a server error): ${res.line}`);
          if (!(String(res.status) in op.responses))
            throw new Error(
              `${op.operationId} answered ${res.status}, which openapi.yaml does not declare for it (declared: ${Object.keys(op.responses).join(", ")}): ${res.line}`,
            );
        });
      }
    });

    describe("REST: a protected operation without a token answers 401", () => {
      for (const op of ops.filter(
        (o) =>
          o.security.length > 0 && o.security.every((alternative) => alternative.length > 0) && "401" in o.responses,
      )) {
        it(`${op.operationId} (${op.method} ${op.path})`, async () => {
          const res = await send(op, world.ids, { token: null, body: bodyFor(op), expect: [401] });
          if (res.status !== 401)
            throw new Error(`${op.operationId} without a token answered ${res.status}, not 401: ${res.line}`);
          if (!res.headers.get("www-authenticate")?.startsWith("Bearer"))
            throw new Error(`${op.operationId}: a 401 without WWW-Authenticate: Bearer: ${res.line}`);
        });
      }
    });

    describe("GraphQL: every root field answers without an internal error", () => {
      for (const root of ["Query", "Mutation"] as const) {
        it(`every ${root} field`, async function () {
          const type = root === "Query" ? app.graphql.schema.getQueryType() : app.graphql.schema.getMutationType();
          if (!type) this.skip();
          const fields = Object.values(type.getFields()).sort(
            (a, b) => Number(/^delete/.test(a.name)) - Number(/^delete/.test(b.name)),
          );
          const failures: string[] = [];
          let answered = 0;
          for (const field of fields) {
            const args = argumentsOf(`${root}.${field.name}`, field);
            if (!args) continue; // an argument neither an id nor the paired operation's example can give
            const query = documentOf(root, field, args);
            const res = await request("POST", "/graphql", { body: { query } });
            const codes: string[] = (res.json?.errors ?? []).map(
              (e: { extensions?: { code?: string } }) => e.extensions?.code,
            );
            if (codes.includes("NOT_IMPLEMENTED")) {
              stubs.add(`${root}.${field.name}`);
              continue;
            }
            answered++;
            if (res.status >= 500 || codes.includes("INTERNAL_SERVER_ERROR"))
              failures.push(`${root}.${field.name} (${query}) answered ${res.status} ${res.text.slice(0, 300)}`);
          }
          if (failures.length) throw new Error(failures.join("\n"));
          if (answered === 0) this.skip();
        });
      }
    });
  });

  /** A value for each argument: ids by name, the paired operation's sample body for its input; undefined when a required one has none. */
  function argumentsOf(coordinate: string, field: GraphQLField<unknown, unknown>): Record<string, unknown> | undefined {
    const rules = definition.contract.graphqlInputs[coordinate];
    const op = rules && ops.find((o) => o.operationId === rules.operationId);
    const sample = op ? (bodyFor(op) as Record<string, unknown> | undefined) : undefined;
    const values: Record<string, unknown> = {};
    for (const a of field.args) {
      if (world.ids[a.name]) values[a.name] = world.ids[a.name];
      else if (rules?.body && "arg" in rules.body && rules.body.arg === a.name && sample !== undefined)
        values[a.name] = sample;
      else if (sample && typeof sample === "object" && a.name in sample) values[a.name] = sample[a.name];
      else if (isNonNullType(a.type) && a.defaultValue === undefined) return undefined;
    }
    return values;
  }
}

function documentOf(root: string, field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): string {
  const list = Object.entries(args).map(([name, value]) => `${name}: ${literal(value)}`);
  const selection = isCompositeType(getNamedType(field.type)) ? " { __typename }" : "";
  return `${root.toLowerCase() === "query" ? "query" : "mutation"} { ${field.name}${list.length ? `(${list.join(", ")})` : ""}${selection} }`;
}

/** A GraphQL literal of a JSON value (object keys unquoted; enums are written as strings the schema coerces). */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value && typeof value === "object")
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${k}: ${literal(v)}`)
      .join(", ")} }`;
  return JSON.stringify(value);
}
