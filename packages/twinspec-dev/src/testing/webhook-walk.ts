// Every declared webhook, delivered: for each operation its x-emitted-by names (and the GraphQL mutation paired with
// it), a receiver on 127.0.0.1 is registered for the event, the operation is sent with its example against a fresh
// world, and the delivery that comes must verify (Standard Webhooks, by the standardwebhooks library, with the secret
// the registration returned), be the envelope openapi.yaml declares (its `type` the webhook's name, the body valid
// against the declared schema), and carry as `webhook-id` the event log's id of the very event: the id the REST event
// stream paired with the same subscription carries (read over HTTP from just before it). A failure names the webhook,
// the step, the request and what was wrong.
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import { describe } from "mocha";
import { Webhook } from "standardwebhooks";
import type { AppDefinition } from "twinspec/internals";
import { isObject, type JsonObject } from "../codegen/load/spec.js";
import { gql, type Reply } from "./client.js";
import { ADMIN_TOKEN } from "./tokens.js";
import { after, before, it } from "./pending.js";
import { attemptsOf, registerEndpoint, startReceiver, type Receiver } from "./webhook-receiver.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { fieldCall, pathParams, specOf, urlOf } from "./spec.js";

const require = createRequire(import.meta.url);
type AjvClass = typeof import("ajv").default;
const Ajv2020 = require("ajv/dist/2020").default as AjvClass;
const addFormats = require("ajv-formats") as (ajv: unknown) => void;

/** How the webhook walk runs; every field is optional. */
export interface WebhookWalkOptions {
  /** what the test server is started with (a migrations folder, the application's middleware, …); its `webhooks` over the walk's (loopback allowed, short retries) */
  server?: TestServerOptions;
  /** how long a delivery may take to come, from the trigger's answer (ms; default 20 000) */
  deliveryTimeoutMs?: number;
}

/** Delivery as the walk needs it: loopback receivers allowed, attempts close together. */
const WALK_DELIVERY = {
  policy: { allowHttp: true, allowPrivate: true },
  pollMs: 50,
  scheduleMs: [50, 100, 200, 400, 800],
  timeoutMs: 5000,
};

/**
 * Registers the webhook walk (a mocha suite): each declared webhook triggered through every operation its
 * x-emitted-by names, over REST and over the GraphQL mutation paired with it, and its delivery checked (signature,
 * declared schema, the event log's id). Nothing is registered when openapi.yaml declares no webhook.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - the server's options and how long a delivery may take (`WebhookWalkOptions`); default none
 */
export function describeWebhookWalk(definition: AppDefinition, options: WebhookWalkOptions = {}): void {
  const names = Object.keys(definition.contract.webhooks ?? {});
  if (names.length === 0) return;
  const spec = specOf(definition);
  const timeoutMs = options.deliveryTimeoutMs ?? 20_000;
  const validate = bodyValidators(spec.doc, spec.resolve);

  describe("webhooks: each declared one delivered, signed, as declared, with the event log's id (twinspec-dev/testing)", function () {
    this.timeout(timeoutMs + 30_000);
    let s: TestServer;
    let receiver: Receiver;
    let hooks = 0;
    before(async () => {
      receiver = await startReceiver();
      s = await startServer(definition, {
        ...options.server,
        webhooks: { ...WALK_DELIVERY, ...options.server?.webhooks },
      });
    });
    after(async () => {
      await s?.close();
      await receiver?.close();
    });

    for (const name of names) {
      const field = definition.contract.webhooks![name].field;
      const stream = spec.operations.find(
        (o) => o.method === "GET" && definition.contract.pairs[o.operationId] === `Subscription.${field}`,
      );
      const emitters = emittedBy(spec.resolve, spec.doc, name).map((id) =>
        spec.operations.find((o) => o.operationId === id),
      );
      if (emitters.length === 0) {
        it(`${name}: x-emitted-by names no operation that emits it, so it is not walked`, function () {
          this.skip();
        });
      }
      for (const op of emitters) {
        if (!op) continue; // `generate` names an operationId that is not one
        const mutation = definition.contract.pairs[op.operationId];
        const triggers = [
          { title: `${op.operationId} (${op.method} ${op.path})`, via: "rest" as const },
          ...(mutation?.startsWith("Mutation.")
            ? [{ title: `${mutation} (paired with ${op.operationId})`, via: "graphql" as const }]
            : []),
        ];
        for (const { title, via } of triggers) {
          it(`${name}, emitted by ${title}`, async () => {
            const path = `/hooks/${++hooks}`;
            // The world first (its jobs settled): the endpoint, registered after, gets only what the trigger emits.
            const { ids } = await spec.newWorld(s.url);
            const { endpointId, secret } = await registerEndpoint(s, `${receiver.url}${path}`, [name]);
            const fail = (step: string, request: string, what: string) => {
              throw new Error(`webhook ${name}, step "${step}": ${request}: ${what}`);
            };
            // The trigger: the operation with its example, or its paired mutation with the same values.
            let request: string;
            if (via === "rest") {
              const body = spec.bodyWithIds(op, ids);
              request = `${op.method} ${urlOf(op, ids)}${body === undefined ? "" : ` ${JSON.stringify(body)}`}`;
              const res = await spec.send(s.url, op, ids, {
                expect: "any",
                step: `webhook walk: ${name} by ${op.operationId}`,
              });
              if (res.status >= 300)
                fail("trigger", request, `answered ${res.status}, not a 2xx: ${res.text.slice(0, 300)}`);
              request += ` (answered ${res.status})`;
            } else {
              const field = spec.graphqlSchema.getMutationType()!.getFields()[mutation.slice("Mutation.".length)];
              const { query, variables } = fieldCall("Mutation", field, spec.argumentValues("Mutation", field, ids));
              request = `POST /graphql ${query} ${JSON.stringify(variables)}`;
              const res: Reply = await gql(s.url, query, variables);
              if (res.json?.errors?.length || res.status >= 300)
                fail("trigger", request, `answered ${res.status} ${res.text.slice(0, 300)}`);
            }
            const got = await receiver.first(path, timeoutMs);
            if (!got) {
              fail(
                "delivery",
                request,
                `nothing was delivered within ${timeoutMs} ms (${await attemptsOf(s, endpointId)}); the operation must emit ${name} (openapi.yaml's x-emitted-by names it)`,
              );
              return;
            }
            let body: { type?: unknown; timestamp?: unknown; data?: unknown };
            try {
              body = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as typeof body;
            } catch (error) {
              fail(
                "signature",
                request,
                `the delivery (webhook-id ${String(got.headers["webhook-id"])}) does not verify with the endpoint's secret (standardwebhooks: ${(error as Error).message})`,
              );
              return;
            }
            if (body.type !== name)
              fail("payload", request, `the delivery's type is ${JSON.stringify(body.type)}, not ${name}`);
            const problems = validate(name, body);
            if (problems.length)
              fail(
                "payload",
                request,
                `the delivery is not the body openapi.yaml declares for ${name}: ${problems.join("; ")} (got ${got.body.slice(0, 300)})`,
              );
            // The event is the trigger's: what the operation's path names, the payload names alike.
            const data = (isObject(body.data) ? body.data : {}) as Record<string, unknown>;
            for (const param of pathParams(op.path))
              if (param in data && data[param] !== ids[param])
                fail(
                  "payload",
                  request,
                  `the delivery's ${param} is ${JSON.stringify(data[param])}, not ${ids[param]}, the one the request named`,
                );
            // webhook-id: the event log's id of this very event.
            const id = String(got.headers["webhook-id"]);
            const position = Number(id);
            const [logged] =
              Number.isSafeInteger(position) && s.app.bus.read
                ? await s.app.bus.read(name as never, position - 1, 1)
                : [];
            if (!logged || logged.position !== position)
              fail("id", request, `webhook-id ${id} is no event ${name} of the event log`);
            else if (!isDeepStrictEqual(JSON.parse(JSON.stringify(logged.event)), body.data)) {
              fail(
                "id",
                request,
                `webhook-id ${id} is the event log's ${JSON.stringify(logged.event)}, but the delivery carries ${JSON.stringify(body.data)}`,
              );
            }
            // The same id on the paired REST event stream, resumed from just before it.
            if (stream) {
              const url = urlOf(stream, ids);
              const seen = await firstStreamId(`${s.url}${url}`, String(position - 1), timeoutMs);
              if (seen !== id)
                fail(
                  "id",
                  request,
                  `webhook-id ${id}, but the event stream ${stream.operationId} (GET ${url}, Last-Event-ID ${position - 1}) ${seen.startsWith("(") ? seen : `carries the event as id ${seen}`}`,
                );
            }
          });
        }
      }
    }
  });
}

/**
 * The id of the first event an event stream sends after `lastEventId`, with the admin token; "(…)" says why there is
 * none.
 */
async function firstStreamId(url: string, lastEventId: string, timeoutMs: number): Promise<string> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  try {
    const res = await fetch(url, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${ADMIN_TOKEN}`, "last-event-id": lastEventId },
      signal: stop.signal,
    });
    if (res.status !== 200 || !res.body) return `(answered ${res.status}: ${(await res.text()).slice(0, 200)})`;
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of res.body) {
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      for (const message of text.split(/\r?\n\r?\n/).slice(0, -1)) {
        const line = message.split(/\r?\n/).find((l) => l.startsWith("id:"));
        if (line && message.split(/\r?\n/).some((l) => l.startsWith("data:"))) return line.slice(3).trim();
      }
    }
    return "(ended without an event)";
  } catch (error) {
    return stop.signal.aborted ? `(sent no event within ${timeoutMs} ms)` : `(failed: ${(error as Error).message})`;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/** The operationIds a webhook's x-emitted-by names (`generate` checked them). */
function emittedBy(resolve: (node: unknown) => JsonObject, doc: JsonObject, name: string): string[] {
  const item = resolve((doc.webhooks as JsonObject)[name]);
  const value = isObject(item?.post) ? item.post["x-emitted-by"] : undefined;
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (v): v is string => typeof v === "string",
  );
}

/** Each webhook's body checked against its declared JSON schema (ajv, OpenAPI 3.1's dialect); "" → the problems. */
function bodyValidators(doc: JsonObject, resolve: (node: unknown) => JsonObject) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ components: doc.components ?? {} }, "twinspec:openapi.yaml");
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (name: string, body: unknown): string[] => {
    let check = compiled.get(name);
    if (!check) {
      const post = resolve((doc.webhooks as JsonObject)[name]).post;
      const content = resolve((post as JsonObject).requestBody).content as JsonObject;
      const schema = rebased(resolve((content["application/json"] as JsonObject).schema));
      compiled.set(name, (check = ajv.compile(schema as object)));
    }
    if (check(body)) return [];
    return (check.errors ?? []).map(
      (e) =>
        `${e.instancePath || "the body"} ${e.message}${e.keyword === "additionalProperties" ? ` (${String(e.params.additionalProperty)})` : ""}`,
    );
  };
}

/** A copy whose local $refs point into the document registered as twinspec:openapi.yaml. */
function rebased(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebased);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `twinspec:openapi.yaml${v}` : rebased(v),
    ]),
  );
}
