// The mock server's webhooks: a caller registers a URL (`POST /webhook-endpoints` with `{ url, events }`, answered
// 201 with the endpoint's id and its secret), and the mock POSTs each of those events' example to it at once, and
// again on `POST /webhook-endpoints/{endpointId}/test` (answered with what each delivery got). Each delivery is the
// body openapi.yaml declares for the webhook (its example, else a sample of its schema, with `type` and a fresh
// `timestamp`), signed per Standard Webhooks with the endpoint's secret by the standardwebhooks library. Endpoints live
// in memory; any URL is accepted (the mock is for local development: receivers on localhost), redirects are not
// followed, and the caller's token is not asked for.
import { randomBytes } from "node:crypto";
import type { Middleware } from "koa";
import { sample } from "openapi-sampler";
import type { Logger } from "pino";
import { Webhook } from "standardwebhooks";
import { refusalOf } from "twinspec/internals";
import { at, isObject, type Json, type JsonObject } from "../codegen/load/spec.js";

const COLLECTION = "/webhook-endpoints";
const MAX_BODY = 64 * 1024;
const TIMEOUT_MS = 10_000;

interface Endpoint {
  endpointId: string;
  url: string;
  events: string[];
  secret: string;
}

/** One delivery the mock sent: its event type and webhook-id, and the receiver's status or what went wrong. */
interface MockDelivery {
  type: string;
  webhookId: string;
  status?: number;
  error?: string;
}

export interface MockWebhooks {
  /** answers POST /webhook-endpoints and POST /webhook-endpoints/{endpointId}/test; hands on every other request */
  middleware: Middleware;
  /** cancels the deliveries still in flight */
  close(): void;
}

/**
 * The mock's webhook endpoints over the webhooks `doc` declares.
 *
 * @param doc - the application's openapi.yaml
 * @param logger - where each delivery is logged
 */
export function mockWebhooks(doc: JsonObject, logger: Logger): MockWebhooks {
  const declared = isObject(doc.webhooks) ? Object.keys(doc.webhooks) : [];
  const endpoints = new Map<string, Endpoint>();
  const stop = new AbortController();
  let made = 0;
  let sent = 0;

  const deliver = async (endpoint: Endpoint, type: string): Promise<MockDelivery> => {
    const webhookId = String(++sent);
    const now = new Date();
    const body = JSON.stringify({ ...exampleOf(doc, type), type, timestamp: now.toISOString() });
    try {
      const res = await fetch(endpoint.url, {
        method: "POST",
        redirect: "manual",
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(TIMEOUT_MS)]),
        headers: {
          "content-type": "application/json",
          "webhook-id": webhookId,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": new Webhook(endpoint.secret).sign(webhookId, now, body),
        },
        body,
      });
      await res.body?.cancel();
      logger.info({ endpointId: endpoint.endpointId, type, webhookId, status: res.status }, "mock webhook sent");
      return { type, webhookId, status: res.status };
    } catch (error) {
      const reason =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      logger.warn({ endpointId: endpoint.endpointId, type, webhookId, err: reason }, "mock webhook not delivered");
      return { type, webhookId, error: reason };
    }
  };
  const deliverAll = (endpoint: Endpoint) => Promise.all(endpoint.events.map((type) => deliver(endpoint, type)));

  const middleware: Middleware = async (ctx, next) => {
    const path = ctx.path;
    if (path !== COLLECTION && !path.startsWith(`${COLLECTION}/`)) return next();
    const test = /^\/webhook-endpoints\/([^/]+)\/test$/.exec(path);
    if (ctx.method !== "POST" || (path !== COLLECTION && !test))
      throw refusalOf(
        "method_not_allowed",
        `the mock answers POST ${COLLECTION} and POST ${COLLECTION}/{endpointId}/test`,
        {},
        { allow: "POST" },
      );
    if (test) {
      const endpoint = endpoints.get(decodeURIComponent(test[1]));
      if (!endpoint) throw refusalOf("not_found", `no webhook endpoint ${test[1]}`);
      ctx.body = { deliveries: await deliverAll(endpoint) };
      return;
    }
    const input = await jsonBody(ctx.req);
    const endpoint: Endpoint = {
      endpointId: `whe_mock${++made}`,
      url: checkUrl(input.url),
      events: checkEvents(input.events, declared),
      secret: `whsec_${randomBytes(24).toString("base64")}`,
    };
    endpoints.set(endpoint.endpointId, endpoint);
    ctx.status = 201;
    ctx.set("location", `${COLLECTION}/${endpoint.endpointId}`);
    ctx.body = endpoint;
    // Sent once the answer is out: the caller has the secret before the first delivery comes.
    ctx.res.once("finish", () => void deliverAll(endpoint));
  };
  return { middleware, close: () => stop.abort() };
}

/** A webhook's example body: its media type's example (or first of its examples), else a sample of its schema. */
function exampleOf(doc: JsonObject, type: string): JsonObject {
  const follow = (node: Json | undefined): Json | undefined => {
    let n = node;
    for (let hops = 0; isObject(n) && typeof n.$ref === "string" && hops < 50; hops++) n = at(doc, n.$ref);
    return n;
  };
  const post = follow((follow((doc.webhooks as JsonObject)[type]) as JsonObject | undefined)?.post);
  const body = isObject(post) ? follow(post.requestBody) : undefined;
  const media = isObject(body) && isObject(body.content) ? body.content["application/json"] : undefined;
  if (!isObject(media)) return {};
  const named = isObject(media.examples) ? follow(Object.values(media.examples)[0]) : undefined;
  const example = media.example ?? (isObject(named) ? named.value : undefined);
  const value =
    example ??
    (media.schema === undefined
      ? {}
      : sample(media.schema as object, { skipReadOnly: true, enablePatterns: true, quiet: true }, doc));
  return isObject(value) ? structuredClone(value) : {};
}

/** The request's JSON object body (64 KiB at most: 413 beyond); a 400 when it is no JSON object. */
async function jsonBody(req: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw refusalOf("too_large", `the body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (isObject(value)) return value;
  } catch {
    // said below
  }
  throw refusalOf("invalid", "the body is a JSON object: { url, events }", {
    errors: [{ in: "body", pointer: "", message: "not a JSON object" }],
  });
}

function checkUrl(value: unknown): string {
  if (typeof value !== "string") throw invalid("/url", "url is the receiver's absolute http: or https: URL");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("/url", `url ${JSON.stringify(value)} does not parse as an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalid("/url", `url must be http: or https:, not ${url.protocol}`);
  return url.href;
}

function checkEvents(value: unknown, declared: string[]): string[] {
  const list = `the declared webhooks: ${declared.join(", ") || "none"}`;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string"))
    throw invalid("/events", `events lists the event types to receive (${list})`);
  const unknown = value.filter((v) => !declared.includes(v));
  if (unknown.length) throw invalid("/events", `events names ${unknown.join(", ")}, not among ${list}`);
  return [...new Set(value)];
}

const invalid = (pointer: string, message: string) =>
  refusalOf("unprocessable", message, { errors: [{ in: "body", pointer, message }] });
