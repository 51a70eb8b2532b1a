// Order status changes in bulk and the two ways of reading them as they stream (graphql-ws, SSE), for the tests of
// resumable subscriptions: each change made, each event received with its id.
import assert from "node:assert/strict";
import { createClient as createWsClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { ADMIN_TOKEN } from "./auth.js";
import { mergePatch } from "./fixtures.js";
import { call, gql } from "./server.js";

const SUBSCRIBE = `subscription($c: ID!, $after: ID) { orderStatusChanged(customerId: $c, after: $after) { orderId status } }`;
const ITEMS = [{ sku: "a", quantity: 1, unitPrice: 2 }];
const STEPS = ["PAID", "SHIPPED", "DELIVERED"] as const;

export interface Received {
  id: string;
  change: string;
}

/** "orderId status", as `expected` lists the changes made. */
const changeOf = (data: unknown) => {
  const c = (data as { orderStatusChanged: { orderId: string; status: string } }).orderStatusChanged;
  return `${c.orderId} ${c.status}`;
};

/** A customer of its own (events of others' customers must not arrive). */
export async function newCustomer(url: string, n: number | string): Promise<string> {
  const customer = await call(`${url}/customers`, {
    method: "POST",
    json: { firstName: "Ada", lastName: "Lovelace", email: `resume${n}@example.com` },
  });
  assert.equal(customer.status, 201, customer.text);
  return customer.json.customerId as string;
}

export async function newOrder(url: string, customerId: string): Promise<string> {
  const order = await call(`${url}/customers/${customerId}/orders`, { method: "POST", json: { items: ITEMS } });
  assert.equal(order.status, 201, order.text);
  return order.json.orderId as string;
}

/**
 * `n` status changes of the customer's orders, one after the other, every other one over REST (merge patch) and
 * GraphQL (updateOrderStatus): "orderId status" of each, in the order made.
 */
export async function changes(url: string, customerId: string, n: number): Promise<string[]> {
  const made: string[] = [];
  let orderId = "";
  for (let i = 0; i < n; i++) {
    if (i % STEPS.length === 0) orderId = await newOrder(url, customerId);
    const status = STEPS[i % STEPS.length];
    if (i % 2 === 0) {
      const r = await call(`${url}/orders/${orderId}`, mergePatch({ status }));
      assert.equal(r.status, 200, r.text);
    } else {
      const r = await gql(
        url,
        `mutation($o: ID!, $s: OrderStatus!) { updateOrderStatus(orderId: $o, status: $s) { status } }`,
        { o: orderId, s: status },
      );
      assert.equal(r.json.data?.updateOrderStatus.status, status, r.text);
    }
    made.push(`${orderId} ${status}`);
  }
  return made;
}

export const wsClient = (url: string): Client =>
  createWsClient({
    url: `${url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });

/** Reads a graphql-ws subscription into `got` (each event with its extensions.eventId) until it ends or fails. */
export function readWs(client: Client, customerId: string, got: Received[], after?: string): Promise<unknown> {
  return (async () => {
    for await (const result of client.iterate({ query: SUBSCRIBE, variables: { c: customerId, after } })) {
      if (result.errors) return result.errors;
      got.push({
        id: String((result.extensions as { eventId?: string } | undefined)?.eventId),
        change: changeOf(result.data),
      });
    }
  })();
}

interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * A raw SSE subscription on /graphql/stream (graphql-sse's distinct connections mode), as a browser's EventSource
 * would make it: `lastEventId` goes as the Last-Event-ID header. Messages land in `got` until `stop()`.
 */
export function sse(url: string, customerId: string, lastEventId?: string) {
  const got: SseMessage[] = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${url}/graphql/stream`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      },
      body: JSON.stringify({ query: SUBSCRIBE, variables: { c: customerId } }),
      signal: controller.signal,
    });
    let buffer = "";
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = { event: "", data: "" };
          for (const line of block.split("\n")) {
            const colon = line.indexOf(":");
            if (colon <= 0) continue; // a comment (keep-alive)
            const [field, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, "")];
            if (field === "id") message.id = value;
            else if (field === "event") message.event = value;
            else if (field === "data") message.data += value;
          }
          if (message.event) got.push(message);
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
    return response.status;
  })();
  return {
    got,
    /** the changes received, each with its id */
    changes: (): Received[] =>
      got
        .filter((m) => m.event === "next" && m.id)
        .map((m) => ({ id: m.id!, change: changeOf(JSON.parse(m.data).data) })),
    done,
    stop: async () => {
      controller.abort();
      await done.catch(() => {});
    },
  };
}

/** Ids are positions: each after the one before it, none twice. */
export function assertIncreasing(got: Received[]) {
  for (let i = 1; i < got.length; i++)
    assert.ok(Number(got[i].id) > Number(got[i - 1].id), `id ${got[i].id} after ${got[i - 1].id}`);
}
