// rest/event-stream.ts on its own: the paired subscription field is run with the path's arguments, each payload is
// written as an SSE message with its event id, an overflow is one `event: error` naming the last id, and closing
// the body ends the subscription. (The commerce service's test/rest/event-stream.test.ts runs it on a real server.)
import assert from "node:assert/strict";
import type { Readable } from "node:stream";
import { buildSchema, GraphQLError, type ExecutionArgs, type ExecutionResult } from "graphql";
import type { GraphqlRuntime } from "../../src/graphql/runtime.js";
import { eventStreamHandlers, pairedSubscription } from "../../src/rest/event-stream.js";
import type { OperationSpec } from "../../src/runtime/index.js";

const schema = buildSchema(
  "type Query { a: Int } type Subscription { thingChanged(thingId: ID!, after: ID): Change! } type Change { thingId: ID! n: Int! }",
);
const op = {
  operationId: "streamThings",
  parameters: [
    { name: "thingId", in: "path", type: "string" },
    { name: "Last-Event-ID", in: "header", type: "string" },
  ],
  responses: { "200": { contentTypes: ["text/event-stream"], headers: [] } },
} as unknown as OperationSpec;
const pairs = { streamThings: "Subscription.thingChanged" };

function runtime(payloads: ExecutionResult[], seen: { args?: ExecutionArgs; returned: boolean }) {
  return {
    schema,
    context: (caller: unknown) => caller,
    subscribe: async (args: ExecutionArgs) => {
      seen.args = args;
      let i = 0;
      return {
        next: async () => (i < payloads.length ? { done: false, value: payloads[i++] } : new Promise(() => {})),
        return: async () => {
          seen.returned = true;
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
  } as unknown as GraphqlRuntime;
}

const read = async (body: Readable, until: RegExp) => {
  let text = "";
  for await (const chunk of body) {
    text += String(chunk);
    if (until.test(text)) break;
  }
  return text;
};

describe("rest/event-stream: REST event streams from subscriptions", () => {
  it("pairs only a text/event-stream operation with a Subscription field", () => {
    assert.equal(pairedSubscription(op, pairs), "thingChanged");
    assert.equal(pairedSubscription(op, { streamThings: "Query.thing" }), undefined);
    assert.equal(
      pairedSubscription({ ...op, responses: { "200": { contentTypes: ["application/json"], headers: [] } } }, pairs),
      undefined,
    );
  });

  it("writes each payload with its id, an overflow as one event: error with the last id, then ends; closing ends the subscription", async () => {
    const seen = { returned: false } as { args?: ExecutionArgs; returned: boolean };
    const payloads: ExecutionResult[] = [
      { data: { thingChanged: { thingId: "t1", n: 1 } }, extensions: { eventId: "41" } },
      { errors: [new GraphQLError("fell behind", { extensions: { code: "EVENTS_OVERFLOW", lastEventId: "41" } })] },
    ];
    const handler = eventStreamHandlers([op], pairs, runtime(payloads, seen)).streamThings;
    const answer = await handler(
      { params: { thingId: "t1" }, query: {}, headers: { "Last-Event-ID": "40" }, principal: null },
      { requestId: "r", operationId: "streamThings" },
    );
    assert.equal(answer.status, 200);
    assert.equal(answer.contentType, "text/event-stream");
    assert.deepEqual(seen.args?.variableValues, { thingId: "t1" });
    assert.equal((seen.args?.contextValue as { lastEventId?: string } | undefined)?.lastEventId, "40");
    const text = await read(answer.body as Readable, /EVENTS_OVERFLOW.*\n\n/);
    assert.equal(
      text,
      ': stream\n\nid: 41\ndata: {"thingId":"t1","n":1}\n\nevent: error\ndata: {"code":"EVENTS_OVERFLOW","message":"fell behind","lastEventId":"41"}\n\n',
    );

    const open = eventStreamHandlers([op], pairs, runtime([], seen)).streamThings;
    seen.returned = false;
    const idle = await open(
      { params: { thingId: "t1" }, query: {}, headers: {}, principal: null },
      { requestId: "r", operationId: "streamThings" },
    );
    (idle.body as Readable).destroy();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(seen.returned, "closing the body returns the subscription");
  });

  it("a refusal before the stream starts is thrown as the REST runtime answers it (EVENTS_EXPIRED → 410 expired)", async () => {
    const gql = {
      schema,
      context: () => ({}),
      subscribe: async () => ({ errors: [new GraphQLError("too old", { extensions: { code: "EVENTS_EXPIRED" } })] }),
    } as unknown as GraphqlRuntime;
    const handler = eventStreamHandlers([op], pairs, gql).streamThings;
    await assert.rejects(
      handler(
        { params: { thingId: "t1" }, query: {}, headers: {}, principal: null },
        { requestId: "r", operationId: "streamThings" },
      ),
      (error: { status?: number; problem?: { type?: string } }) =>
        error.status === 410 && error.problem?.type === "urn:twinspec:problem:expired",
    );
  });
});
