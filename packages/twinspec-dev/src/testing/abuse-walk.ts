// The abuse walk: hostile requests derived from an application's specs, sent to a real server (the kit's startServer)
// with the admin token, against one instance of every resource (world.ts). Every multipart operation gets a body cut
// off mid-part; every JSON body is sent nested far too deep, with invalid UTF-8 and with a duplicated key; every
// operation gets an over-long URL and header; the GraphQL schema gets a fragment fan-out, alias, directive and token
// floods and deeply nested variables over POST, GET and graphql-ws; graphql-ws gets more connections from one
// address than it allows. Each must be refused with a code — REST: a 4xx problem+json the operation or the server
// declares; GraphQL: an HTTP 4xx or errors that carry extensions.code, never INTERNAL_SERVER_ERROR; graphql-ws: a
// coded error or a 44xx close — within a bounded time, without blocking the event loop, and /healthz must answer at
// once afterwards. A probe that crashes the server fails its own test: mocha names the operation and the attack, the
// failure the request.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import type { OperationSpec } from "twinspec/internals";
import {
  DEEP,
  LONG,
  duplicateKey,
  firstFileField,
  graphqlAttacks,
  invalidUtf8,
  nestedArrays,
  nestedObjects,
  truncatedMultipart,
  type GraphqlAttack,
} from "./abuse-payloads.js";
import { openSocket, sendOverSocket } from "./abuse-ws.js";
import { replyOf, type Reply } from "./client.js";
import { BEFORE_ROUTING } from "./coverage.js";
import { exchangeLine, lastExchange } from "./exchange.js";
import { after, before, it } from "./pending.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf } from "./spec.js";
import { ADMIN_SUBJECT, token } from "./tokens.js";
import { newWorld, specReader, urlOf } from "./world.js";

/** How the abuse walk runs; every field is optional. */
export interface AbuseWalkOptions {
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
  /** the longest a probe may wait for its answer (default 5 s) */
  answerWithinMs?: number;
  /** graphql-ws connections one address may hold (default WS_MAX_CONNECTIONS_PER_ADDRESS, else 100) */
  wsConnectionsPerAddress?: number;
  /** the WebSocket flood (default run; false: not run) */
  wsFlood?: boolean;
}

/** How soon /healthz must answer after a probe, and the longest the event loop may be blocked during one. */
const HEALTHY_WITHIN_MS = 1_000;
/** Variables over GET: as deep as fits the URL limit, so that they reach the parser. */
const GET_DEPTH = 3_000;

type Verdict = string | undefined;
/** The object as JSON text, with the value of `key` replaced by the JSON text `json`. */
const replaced = (body: Record<string, unknown>, key: string, json: string) =>
  JSON.stringify({ ...body, [key]: "\u0000abuse" }).replace('"\\u0000abuse"', () => json);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Registers the abuse walk (a mocha suite) over the application's specs: hostile requests that must each be refused
 * with a code, in bounded time, the server staying healthy.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - time limits, the WebSocket flood and the server's options (`AbuseWalkOptions`); default none
 */
export function describeAbuseWalk(definition: AppDefinition, options: AbuseWalkOptions = {}): void {
  const reader = specReader(specOf(definition).doc);
  const answerWithin = options.answerWithinMs ?? 5_000;
  const cap = options.wsConnectionsPerAddress ?? (Number(process.env.WS_MAX_CONNECTIONS_PER_ADDRESS) || 100);
  let s: TestServer;
  let admin = "";
  let ids: Record<string, string> = {};

  const request = async (
    method: string,
    path: string,
    init: { type?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = {
      accept: "application/json, application/problem+json, application/graphql-response+json",
      authorization: `Bearer ${admin}`,
      ...init.headers,
    };
    if (init.type) headers["content-type"] = init.type;
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(answerWithin),
    });
    const reply = await replyOf(res);
    // What a failure shows (pending.ts): the hostile request, its URL and body cut short, and what it answered.
    lastExchange.line = exchangeLine(method, path.slice(0, 200), init.body, reply.status, reply.text);
    return reply;
  };

  /** One probe: `attack` sends and judges; then the answer time, the event loop and /healthz are checked. */
  const probe = (title: string, attack: () => Promise<Verdict>) =>
    it(title, async function () {
      this.timeout(answerWithin * 2 + HEALTHY_WITHIN_MS * 2 + 5_000);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const problems: string[] = [];
      const started = performance.now();
      try {
        const verdict = await bounded(attack(), answerWithin + 1_000, `no answer within ${answerWithin} ms`);
        if (verdict) problems.push(verdict);
      } catch (error) {
        problems.push(`the request failed: ${describeError(error)}`);
      } finally {
        loop.disable();
      }
      const took = performance.now() - started;
      if (took > answerWithin) problems.push(`answered after ${Math.round(took)} ms (at most ${answerWithin})`);
      const blocked = loop.max / 1e6;
      if (blocked > HEALTHY_WITHIN_MS) problems.push(`the event loop was blocked for ${Math.round(blocked)} ms`);
      const health = await healthz();
      if (health) problems.push(health);
      if (problems.length) throw new Error(`${title}:\n  ${problems.join("\n  ")}`);
    });

  const healthz = async (): Promise<Verdict> => {
    try {
      const res = await fetch(`${s.url}/healthz`, { signal: AbortSignal.timeout(HEALTHY_WITHIN_MS) });
      await res.arrayBuffer();
      return res.status === 200 ? undefined : `GET /healthz then answered ${res.status}`;
    } catch (error) {
      return `GET /healthz did not answer 200 within ${HEALTHY_WITHIN_MS} ms: ${describeError(error)}`;
    }
  };

  describe("abuse: hostile requests from the specs, refused with a code (twinspec-dev/testing)", function () {
    this.timeout(60_000);

    before(async () => {
      s = await startServer(definition, options.server);
      admin = await token(ADMIN_SUBJECT, [...new Set([...Object.keys(definition.contract.scopes), "admin"])].join(" "));
      const send = (op: OperationSpec, at: Record<string, string>, init: { body?: unknown } = {}) => {
        const sample = reader.sampleBody(op);
        const body = init.body ?? sample?.body;
        // Multipart creators are not sent: the world makes what it can with JSON bodies.
        if (sample?.type.startsWith("multipart/"))
          return Promise.resolve({ status: 0, headers: new Headers(), text: "", json: undefined });
        return request(
          op.method,
          urlOf(op, at),
          body === undefined
            ? {}
            : {
                type: sample?.type ?? "application/json",
                body: typeof body === "string" ? body : JSON.stringify(body),
              },
        );
      };
      ids = (await newWorld(definition, reader, send)).ids;
    });

    after(() => s?.close());

    const rest = (op: OperationSpec, reply: Reply) => restVerdict(op, reply);
    describe("REST", () => {
      for (const op of definition.operationSpecs) {
        const name = `${op.operationId} (${op.method} ${op.path})`;
        const sample = reader.sampleBody(op);
        if (op.body?.multipart) {
          probe(`${name}: a multipart body cut off mid-part → a coded 4xx`, async () => {
            const { type, body } = truncatedMultipart(firstFileField(op));
            return rest(op, await request(op.method, urlOf(op, ids), { type, body }));
          });
        }
        if (sample && /json/.test(sample.type)) {
          const json = (body: string | Buffer) => request(op.method, urlOf(op, ids), { type: sample.type, body });
          probe(`${name}: a JSON body of arrays nested ${DEEP.toLocaleString("en")} deep → a coded 4xx`, async () =>
            rest(op, await json(nestedArrays(DEEP))),
          );
          if (isObject(sample.body) && Object.keys(sample.body).length) {
            const [first] = Object.keys(sample.body);
            probe(
              `${name}: a JSON body with objects nested ${DEEP.toLocaleString("en")} deep in ${first} → a coded 4xx`,
              async () =>
                rest(op, await json(replaced(sample.body as Record<string, unknown>, first, nestedObjects(DEEP)))),
            );
            probe(`${name}: a JSON body with a duplicated key (${first}) → a coded 4xx`, async () =>
              rest(op, await json(duplicateKey(sample.body as Record<string, unknown>))),
            );
            probe(`${name}: a JSON body of invalid UTF-8 → a coded 4xx`, async () =>
              rest(op, await json(invalidUtf8(sample.body as Record<string, unknown>))),
            );
          }
        }
        probe(`${name}: a ${LONG / 1024} KB query string → a coded 4xx`, async () =>
          rest(op, await request(op.method, `${urlOf(op, ids)}?q=${"x".repeat(LONG)}`)),
        );
        probe(`${name}: a ${LONG / 1024} KB header → a coded 4xx`, async () =>
          rest(op, await request(op.method, urlOf(op, ids), { headers: { "x-abuse": "x".repeat(LONG) } })),
        );
      }
    });

    describe("GraphQL", () => {
      const query = () => s.app.graphql.schema.getQueryType()?.name ?? "Query";
      const attack = (i: number, depth?: number): GraphqlAttack => graphqlAttacks(query(), depth)[i];
      graphqlAttacks("Query").forEach((named, i) => {
        const expected = named.mayAnswer ? "answered in time, or a coded error" : "a coded error";
        probe(`${named.name} over POST → ${expected}`, async () => {
          const a = attack(i);
          return graphqlVerdict(
            await request("POST", "/graphql", { type: "application/json", body: payload(a) }),
            a.mayAnswer,
          );
        });
        probe(
          `${named.name.replace(`${DEEP.toLocaleString("en")} deep`, `${GET_DEPTH.toLocaleString("en")} deep`)} over GET → ${expected}`,
          async () => {
            const a = attack(i, GET_DEPTH);
            const params = new URLSearchParams({ query: a.query, ...(a.variables ? { variables: a.variables } : {}) });
            return graphqlVerdict(await request("GET", `/graphql?${params}`), a.mayAnswer);
          },
        );
        probe(`${named.name} over graphql-ws → ${expected} or a 44xx close`, async () => {
          const a = attack(i);
          return wsVerdict(await sendOverSocket(s.url, admin, payload(a)), a.mayAnswer);
        });
      });

      if (options.wsFlood !== false) {
        probe(
          `graphql-ws: ${cap} + 10 connections from one address → the excess closed 4429, all closed after`,
          async () => {
            const sockets = Array.from({ length: cap + 10 }, () => openSocket(s.url, admin));
            try {
              // Each is acknowledged or closed; then, a moment later, how each has ended so far.
              await Promise.all(sockets.map((x) => x.acked));
              await new Promise((r) => setTimeout(r, 200));
              const refused = sockets.filter((x) => x.ws.readyState !== x.ws.OPEN).map((x) => x.ws);
              const codes = await Promise.all(
                sockets.filter((x) => refused.includes(x.ws)).map(async (x) => (await x.ended).code),
              );
              const limited = codes.filter((c) => c === 4429).length;
              if (limited < 10 || codes.some((c) => c !== 4429))
                return `of ${cap + 10} connections, ${limited} were closed 4429 (expected at least 10), others with ${codes.filter((c) => c !== 4429).join(", ") || "nothing"}`;
            } finally {
              for (const x of sockets) x.ws.terminate();
              await Promise.all(sockets.map((x) => x.ended));
            }
            // The slots are free again: a new connection is acknowledged.
            const again = openSocket(s.url, admin);
            const ok = await again.acked;
            again.ws.terminate();
            await again.ended;
            return ok ? undefined : "once every socket was closed, a new connection was not acknowledged";
          },
        );
      }
    });
  });
}

/** REST: a 4xx the operation (or the server, before routing) declares, as problem+json. */
function restVerdict(op: OperationSpec, res: Reply): Verdict {
  const what = `${res.status} ${res.text.slice(0, 300)}`;
  if (res.status < 400 || res.status >= 500) return `answered ${what}; expected a 4xx`;
  if (!(String(res.status) in op.responses) && !(BEFORE_ROUTING as readonly string[]).includes(String(res.status)))
    return `answered ${res.status}, which neither ${op.operationId} nor the server declares: ${what}`;
  const type = res.headers.get("content-type")?.split(";")[0];
  if (type !== "application/problem+json")
    return `answered ${res.status} as ${type ?? "no media type"}, not application/problem+json`;
  return undefined;
}

/** GraphQL over HTTP: a 4xx, or errors each with extensions.code and none INTERNAL_SERVER_ERROR. */
function graphqlVerdict(res: Reply, mayAnswer = false): Verdict {
  const what = `${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) return `answered ${what}`;
  return codedErrors((res.json as { errors?: unknown } | undefined)?.errors, what, mayAnswer || res.status >= 400);
}

/** graphql-ws: an error message (or a result with errors) each coded, or a close in the 44xx range. */
function wsVerdict(answer: Awaited<ReturnType<typeof sendOverSocket>>, mayAnswer = false): Verdict {
  if (answer.type === "close")
    return answer.code >= 4400 && answer.code < 4500
      ? undefined
      : `the socket was closed ${answer.code} ${answer.reason}`;
  const errors =
    answer.type === "error" ? answer.payload : (answer.payload as { errors?: unknown } | undefined)?.errors;
  return codedErrors(
    errors,
    `${answer.type} ${JSON.stringify(answer.payload).slice(0, 300)}`,
    mayAnswer && answer.type === "next",
  );
}

/** The JSON text of a GraphQL request's { query, variables }. */
const payload = (a: GraphqlAttack) =>
  `{"query":${JSON.stringify(a.query)}${a.variables ? `,"variables":${a.variables}` : ""}}`;

/** Errors, each with extensions.code, none INTERNAL_SERVER_ERROR (`optional`: none at all is fine too). */
function codedErrors(errors: unknown, what: string, optional = false): Verdict {
  if (!Array.isArray(errors) || errors.length === 0) return optional ? undefined : `answered without errors: ${what}`;
  const codes = errors.map((e: { extensions?: { code?: unknown } }) => e?.extensions?.code);
  if (codes.some((c) => typeof c !== "string")) return `an error without extensions.code: ${what}`;
  if (codes.includes("INTERNAL_SERVER_ERROR")) return `an INTERNAL_SERVER_ERROR: ${what}`;
  return undefined;
}

/** The promise, or a rejection once `ms` have passed. */
function bounded<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(why)), ms))),
  ]).finally(() => clearTimeout(timer));
}

const describeError = (error: unknown) => {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return [e?.message ?? String(error), e?.cause?.code ?? e?.cause?.message].filter(Boolean).join(": ");
};
