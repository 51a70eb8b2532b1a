// REST event streams: an operation answering 200 text/event-stream that pairs with a subscription field
// (x-graphql: Subscription.<field>) is served by running that field — the same resolver, @auth, ownership, ids and
// resumption as over graphql-ws and SSE — and writing each payload as a Server-Sent Event: `id:` the event id,
// `data:` the field's value as JSON. A client reconnecting with `Last-Event-ID` resumes after it (as the
// subscription's `after`). What refuses the subscription before it starts (unknown or deleted owner, an expired id)
// is thrown, so the REST runtime answers it as the operation declares (404, 410, …); a stream that ends with an
// error (its reader fell behind: EVENTS_OVERFLOW) sends one `event: error` message, then ends. Closing the
// connection ends the subscription and frees its listener.
import { PassThrough, type Readable } from "node:stream";
import {
  getNamedType,
  GraphQLError,
  isLeafType,
  isNonNullType,
  isObjectType,
  parse,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLObjectType,
} from "graphql";
import type { Principal } from "../auth/principal.js";
import { DomainError, MovedError } from "../domain/errors.js";
import { ERRORS, type Kind } from "../error-table.js";
import type { GraphqlRuntime } from "../graphql/runtime.js";
import { EVENT_STREAM } from "../runtime/body.js";
import { HttpError, type HandlerResponse, type OperationSpec, type RequestContext } from "../runtime/index.js";
import { refusalOf } from "../runtime/problems.js";

/** A comment sent this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;
/** Object fields are selected this deep (leaves only beyond). */
const DEPTH = 4;

type StreamRequest = {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  principal?: Principal | null;
};
type StreamHandler = (req: StreamRequest, ctx: RequestContext) => Promise<HandlerResponse>;

/** Whether an operation is an event stream served from its paired subscription (`pairs`: operationId → field). */
export function pairedSubscription(
  op: OperationSpec,
  pairs: Readonly<Record<string, string>>,
  subscription = "Subscription",
): string | undefined {
  const target = pairs[op.operationId];
  if (!target?.startsWith(`${subscription}.`) || !op.responses["200"]?.contentTypes.includes(EVENT_STREAM))
    return undefined;
  return target.slice(subscription.length + 1);
}

/** A handler for each event-stream operation of `operations`, by operationId. */
export function eventStreamHandlers(
  operations: readonly OperationSpec[],
  pairs: Readonly<Record<string, string>>,
  gql: GraphqlRuntime,
  keepAliveMs = KEEP_ALIVE_MS,
): Record<string, StreamHandler> {
  const type = gql.schema.getSubscriptionType();
  if (!type) return {};
  const handlers: Record<string, StreamHandler> = {};
  for (const op of operations) {
    const name = pairedSubscription(op, pairs, type.name);
    const field = name === undefined ? undefined : type.getFields()[name];
    if (field) handlers[op.operationId] = streamHandler(op, field, gql, keepAliveMs);
  }
  return handlers;
}

function streamHandler(
  op: OperationSpec,
  field: GraphQLField<unknown, unknown>,
  gql: GraphqlRuntime,
  keepAliveMs: number,
): StreamHandler {
  const document = subscriptionDocument(field);
  const lastEventIdHeader = op.parameters.find(
    (p) => p.in === "header" && p.name.toLowerCase() === "last-event-id",
  )?.name;
  return async (req, ctx) => {
    // The field's arguments from the path and query parameters of the same names.
    const variables: Record<string, unknown> = {};
    for (const arg of field.args) {
      const value = req.params[arg.name] ?? req.query[arg.name];
      if (value !== undefined) variables[arg.name] = value;
    }
    const lastEventId =
      lastEventIdHeader === undefined ? undefined : (req.headers[lastEventIdHeader] as string | undefined);
    // The stream's lines carry the id of the request that opened it.
    const log = gql.log?.child({ requestId: ctx.requestId });
    const contextValue = gql.context({ principal: req.principal ?? null, requestId: ctx.requestId, log, lastEventId });
    const result = await gql.subscribe({ schema: gql.schema, document, variableValues: variables, contextValue });
    if (!(Symbol.asyncIterator in result)) throw refusal(result.errors?.[0], req.params);
    const body = writeEvents(result, field.name, keepAliveMs, log);
    return {
      status: 200,
      contentType: EVENT_STREAM,
      headers: { "Cache-Control": "no-store", "X-Accel-Buffering": "no" },
      body,
    };
  };
}

/** What refused a subscription, as the REST runtime answers it: the domain's error, or the status of its code. */
function refusal(error: GraphQLError | undefined, params: Record<string, unknown>): unknown {
  if (!error) return new Error("the subscription answered neither a stream nor an error");
  const original = error.originalError;
  if (original instanceof DomainError || original instanceof HttpError) return original;
  // The schema's resolvers answer domain errors as coded GraphQL errors (graphql/schema.ts): the code's kind again.
  const kind = (Object.keys(ERRORS) as Kind[]).find((k) => ERRORS[k].code === error.extensions?.code);
  if (!kind) return original ?? error;
  // Moved: what the path names (its last parameter) lives at movedTo; the runtime answers 301 with that Location.
  const movedTo = error.extensions?.movedTo;
  const last = Object.values(params).at(-1);
  if (kind === "moved" && typeof movedTo === "string" && typeof last === "string")
    return new MovedError("resource", last, movedTo);
  const retryAfter = error.extensions?.retryAfterSeconds as number | undefined;
  return refusalOf(kind, error.message, {}, retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) });
}

/** `subscription($a: T, …) { field(a: $a, …) { every field of its type, DEPTH deep } }` */
function subscriptionDocument(field: GraphQLField<unknown, unknown>): DocumentNode {
  const variables = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(", ");
  const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const type = getNamedType(field.type);
  const selection = isObjectType(type) ? ` ${selectionOf(type, DEPTH)}` : "";
  return parse(
    `subscription${variables ? `(${variables})` : ""} { ${field.name}${args ? `(${args})` : ""}${selection} }`,
  );
}

function selectionOf(type: GraphQLObjectType, depth: number): string {
  const fields: string[] = [];
  for (const f of Object.values(type.getFields())) {
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(f.type);
    if (isLeafType(named)) fields.push(f.name);
    else if (isObjectType(named) && depth > 1) fields.push(`${f.name} ${selectionOf(named, depth - 1)}`);
  }
  return `{ ${fields.length ? fields.join(" ") : "__typename"} }`;
}

/** The subscription's payloads as SSE messages, written as fast as the client reads them; closing it ends the subscription. */
function writeEvents(
  results: AsyncGenerator<ExecutionResult>,
  field: string,
  keepAliveMs: number,
  log: GraphqlRuntime["log"],
): Readable {
  const out = new PassThrough();
  let closed = false;
  const keepAlive = setInterval(() => out.write(": keep-alive\n\n"), keepAliveMs).unref();
  out.once("close", () => {
    closed = true;
    clearInterval(keepAlive);
    void results.return(undefined);
  });
  // Sent at once, so the client has the answer's head before the first event.
  out.write(": stream\n\n");
  const pump = async () => {
    for (;;) {
      const step = await results.next();
      if (step.done || closed) return;
      const { data, errors, extensions } = step.value;
      if (errors?.length) {
        const [error] = errors;
        out.write(
          `event: error\ndata: ${JSON.stringify({ code: error.extensions?.code, message: error.message, ...(error.extensions?.lastEventId === undefined ? {} : { lastEventId: error.extensions.lastEventId }) })}\n\n`,
        );
        return;
      }
      const id = extensions?.eventId;
      const message = `${typeof id === "string" ? `id: ${id}\n` : ""}data: ${JSON.stringify(data?.[field] ?? null)}\n\n`;
      if (!out.write(message)) await drained(out);
    }
  };
  pump().then(
    () => {
      clearInterval(keepAlive);
      if (!closed) out.end();
    },
    (error: unknown) => {
      log?.error({ err: error }, "event stream failed");
      out.destroy();
    },
  );
  return out;
}

/** Resolves when the stream takes more, or is closed. */
function drained(out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("close", done);
  });
}
