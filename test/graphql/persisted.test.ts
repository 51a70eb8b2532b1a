// Persisted documents against the real server: the client preset's documentId, Apollo's automatic persisted
// queries (hash only → PERSISTED_QUERY_NOT_FOUND → text + hash registers it), over POST, GET, graphql-ws and SSE;
// the typed client sending only hashes; Apollo Client's own persisted-query link; and GRAPHQL_PERSISTED_ONLY,
// where the manifest is a safelist.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from "@apollo/client";
import { createPersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { print } from "graphql";
import { createClient as createSseClient } from "graphql-sse";
import { createClient as createWsClient } from "graphql-ws";
import WebSocket from "ws";
import { createGraphqlClient } from "twinspec-commerce-client";
import { graphqlExample, subscriptionExample } from "../../examples/graphql.js";
import {
  CustomerDocument,
  CustomersDocument,
  OrderStatusChangedDocument,
  PlaceOrderDocument,
  UpdateOrderStatusDocument,
} from "twinspec-commerce-client";
import { persistedDocuments } from "../../generated/persisted-documents.js";
import { configFromEnv } from "../../packages/twinspec/src/config.js";
import { ADMIN_TOKEN } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";
import { until } from "../support/wait.js";
import { ITEMS, seedCustomer } from "./helpers.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const idOf = (document: unknown) => (document as { __meta__: { hash: string } }).__meta__.hash;
const hexOf = (document: unknown) => idOf(document).slice("sha256:".length);
const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const json = { accept: "application/json" };
const codes = (body: { errors?: { extensions?: { code?: string } }[] }) =>
  (body.errors ?? []).map((e) => e.extensions?.code);

/** fetch that records what the client sent. */
function recording() {
  const sent: { method: string; url: string; body?: Record<string, any> }[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    sent.push({
      method: init?.method ?? "GET",
      url: input instanceof Request ? input.url : String(input),
      body: init?.body ? JSON.parse(init.body as string) : undefined,
    });
    return fetch(input, init);
  };
  return { sent, fetch: fetchImpl };
}

describe("persisted documents", () => {
  let s: TestServer;
  /** the subscriptions listening on the server's bus */
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  let customerId: string;
  before(async () => {
    s = await startServer();
    customerId = (await seedCustomer(s, 1)).customerId;
  });
  after(() => s.close());

  const post = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(`${s.url}/graphql`, { method: "POST", json: body, headers });
  const get = (params: Record<string, string>, headers: Record<string, string> = {}) =>
    call(`${s.url}/graphql?${new URLSearchParams(params)}`, { headers });

  it("the manifest is the client preset's: sha256 ids of the documents the typed client embeds", () => {
    assert.ok(Object.keys(persistedDocuments).length >= 9);
    for (const [id, text] of Object.entries(persistedDocuments)) assert.equal(id, `sha256:${sha256(text)}`);
    assert.equal(persistedDocuments[idOf(CustomerDocument)]?.startsWith("query Customer("), true);
  });

  it("documentId (the client preset's convention) over POST and GET, with or without the sha256: prefix", async () => {
    for (const documentId of [idOf(CustomerDocument), hexOf(CustomerDocument)]) {
      const res = await post({ documentId, variables: { customerId } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.data.customer.customerId, customerId);
    }
    const res = await get({ documentId: idOf(CustomerDocument), variables: JSON.stringify({ customerId }) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.customer.customerId, customerId);
  });

  it("an unknown documentId → PERSISTED_QUERY_NOT_FOUND; documentId beside query → BAD_REQUEST", async () => {
    const unknown = await post(
      { documentId: `sha256:${"0".repeat(64)}` },
      { accept: "application/graphql-response+json" },
    );
    assert.equal(unknown.status, 400);
    assert.deepEqual(codes(unknown.json), ["PERSISTED_QUERY_NOT_FOUND"]);
    const both = await post({ documentId: idOf(CustomerDocument), query: "{ __typename }" }, json);
    assert.equal(both.status, 200, "application/json answers request errors with 200, as graphql-http does");
    assert.deepEqual(codes(both.json), ["BAD_REQUEST"]);
  });

  it("APQ: a known hash runs; an unknown one asks for the text; text + hash registers it; then the hash alone runs", async () => {
    const known = await post({ extensions: apq(hexOf(CustomerDocument)), variables: { customerId } }, json);
    assert.equal(known.json.data.customer.customerId, customerId, "manifest documents need no registration");

    const query = `query Named($id: ID!) { customer(customerId: $id) { firstName } }`;
    const hash = sha256(query);
    const first = await post({ extensions: apq(hash), variables: { id: customerId } }, json);
    assert.equal(first.status, 200, "200 + PERSISTED_QUERY_NOT_FOUND, as Apollo Server answers");
    assert.deepEqual(codes(first.json), ["PERSISTED_QUERY_NOT_FOUND"]);
    assert.equal(first.json.errors[0].message, "PersistedQueryNotFound");
    const second = await post({ query, extensions: apq(hash), variables: { id: customerId } }, json);
    assert.equal(second.json.data.customer.firstName, "First1");
    const third = await get(
      { extensions: JSON.stringify(apq(hash)), variables: JSON.stringify({ id: customerId }) },
      json,
    );
    assert.equal(third.json.data.customer.firstName, "First1", "registered, and served over GET");
  });

  it("APQ refuses a text that does not match its hash (and registers nothing), a bad version, and a mutation over GET", async () => {
    const hash = sha256("{ __typename }");
    const mismatch = await post({ query: "{ customers(first: 1) { customerId } }", extensions: apq(hash) }, json);
    assert.deepEqual(codes(mismatch.json), ["BAD_REQUEST"]);
    assert.match(mismatch.json.errors[0].message, /sha does not match/);
    assert.deepEqual(codes((await post({ extensions: apq(hash) }, json)).json), ["PERSISTED_QUERY_NOT_FOUND"]);
    assert.deepEqual(
      codes((await post({ extensions: { persistedQuery: { version: 2, sha256Hash: hash } } }, json)).json),
      ["BAD_REQUEST"],
    );
    const mutation = await get({
      extensions: JSON.stringify(apq(hexOf(UpdateOrderStatusDocument))),
      variables: JSON.stringify({ orderId: "x", status: "PAID" }),
    });
    assert.equal(mutation.status, 405);
  });

  it("SSE (/graphql/stream): a document by documentId, read from the body graphql-sse hands on without it", async () => {
    const stream = (body: Record<string, unknown>) =>
      fetch(`${s.url}/graphql/stream`, {
        method: "POST",
        headers: {
          accept: "text/event-stream",
          "content-type": "application/json",
          authorization: `Bearer ${ADMIN_TOKEN}`,
        },
        body: JSON.stringify(body),
      });
    const found = await stream({ query: "", documentId: idOf(CustomerDocument), variables: { customerId } });
    assert.equal(found.status, 200);
    const text = await found.text();
    assert.match(text, /event: next\ndata: .*"customerId":"/);
    assert.match(text, /event: complete/);
    const unknown = await stream({ query: "", documentId: "sha256:" + "0".repeat(64), variables: { customerId } });
    assert.equal(unknown.status, 400);
    assert.deepEqual(codes((await unknown.json()) as Parameters<typeof codes>[0]), ["PERSISTED_QUERY_NOT_FOUND"]);
    // Over GET the parameters are in the URL: a documentId stands for the text there too.
    const search = new URLSearchParams({
      documentId: idOf(CustomerDocument),
      variables: JSON.stringify({ customerId }),
    });
    const overGet = await fetch(`${s.url}/graphql/stream?${search}`, {
      headers: { accept: "text/event-stream", authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(overGet.status, 200);
    assert.match(await overGet.text(), /event: next\ndata: .*"customerId":"/);
  });

  it('graphql-ws: a subscription by hash (query "" + extensions.persistedQuery) and by documentId', async () => {
    const order = await s.app.services.orders.place(customerId, { items: ITEMS });
    const client = createWsClient({
      url: `${s.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    try {
      const byHash = client.iterate({
        query: "",
        extensions: apq(hexOf(OrderStatusChangedDocument)),
        variables: { customerId },
      });
      const byId = client.iterate({
        query: "",
        documentId: idOf(OrderStatusChangedDocument),
        variables: { customerId },
      } as { query: string; variables: Record<string, unknown> });
      const listening = listeners();
      const nextHash = byHash.next();
      const nextId = byId.next();
      await until(() => listeners() === listening + 2, "both subscriptions to listen");
      await s.app.services.orders.changeStatus(order.orderId, "PAID");
      assert.equal((await nextHash).value?.data?.orderStatusChanged?.status, "PAID");
      assert.equal((await nextId).value?.data?.orderStatusChanged?.status, "PAID");
      await byHash.return?.();
      await byId.return?.();
      await assert.rejects(client.iterate({ query: "", extensions: apq("1".repeat(64)) }).next(), (errors: unknown) => {
        assert.deepEqual(codes({ errors: errors as never }), ["PERSISTED_QUERY_NOT_FOUND"]);
        return true;
      });
    } finally {
      await client.dispose();
    }
  });

  it("the typed client sends only the hash, and the text once when the server does not know it", async () => {
    const { sent, fetch } = recording();
    const client = createGraphqlClient({ url: `${s.url}/graphql`, token: ADMIN_TOKEN, fetch });
    assert.equal((await client.data(CustomerDocument, { customerId })).customer?.customerId, customerId);
    assert.deepEqual(
      { ...sent[0].body },
      { operationName: "Customer", variables: { customerId }, extensions: apq(hexOf(CustomerDocument)) },
    );

    // A document whose hash this server lacks (another build's manifest): hash → NOT_FOUND → text + its hash, once.
    const foreign = {
      ...CustomersDocument,
      __meta__: { hash: `sha256:${"a".repeat(64)}` },
    } as typeof CustomersDocument;
    sent.length = 0;
    assert.ok((await client.data(foreign, { first: 1 })).customers.length >= 1);
    assert.equal(sent.length, 2);
    assert.equal(sent[0].body!.query, undefined, "the hash alone first");
    assert.equal(sent[1].body!.query, print(CustomersDocument));
    const textHash = sha256(print(CustomersDocument));
    assert.deepEqual(sent[1].body!.extensions, apq(textHash));
    sent.length = 0;
    await client.data(foreign, { first: 1 });
    assert.deepEqual(
      sent.map((r) => [r.body!.query, r.body!.extensions]),
      [[undefined, apq(textHash)]],
      "one request, by the registered hash",
    );
  });

  it("the typed client: documentId mode, GET for hashed queries (mutations stay POST), and subscriptions by hash with the text as fallback", async () => {
    const byId = recording();
    const viaId = createGraphqlClient({
      url: `${s.url}/graphql`,
      token: ADMIN_TOKEN,
      fetch: byId.fetch,
      persisted: "documentId",
    });
    assert.equal((await viaId.data(CustomerDocument, { customerId })).customer?.customerId, customerId);
    assert.deepEqual(byId.sent[0].body, {
      operationName: "Customer",
      variables: { customerId },
      documentId: idOf(CustomerDocument),
    });

    const viaGet = recording();
    const getClient = createGraphqlClient({
      url: `${s.url}/graphql`,
      token: ADMIN_TOKEN,
      fetch: viaGet.fetch,
      getForHashedQueries: true,
    });
    assert.equal((await getClient.data(CustomerDocument, { customerId })).customer?.customerId, customerId);
    const placed = await getClient.data(PlaceOrderDocument, { customerId, input: { items: ITEMS } });
    assert.deepEqual(
      viaGet.sent.map((r) => r.method),
      ["GET", "POST"],
    );
    assert.match(viaGet.sent[0].url, /extensions=/);

    const foreign = {
      ...OrderStatusChangedDocument,
      __meta__: { hash: `sha256:${"b".repeat(64)}` },
    } as typeof OrderStatusChangedDocument;
    for (const document of [OrderStatusChangedDocument, foreign]) {
      const events = getClient.subscribe(document, { customerId });
      const next = events.next();
      await new Promise((r) => setTimeout(r, 250));
      await getClient.data(UpdateOrderStatusDocument, {
        orderId: placed.placeOrder!.orderId,
        status: document === foreign ? "SHIPPED" : "PAID",
      });
      assert.equal((await next).value?.data?.orderStatusChanged.status, document === foreign ? "SHIPPED" : "PAID");
      await events.return?.();
    }
    await getClient.close();
  });

  it("Apollo Client 4's persisted-query link: hash first, the text after PERSISTED_QUERY_NOT_FOUND, hash only afterwards", async () => {
    const { sent, fetch } = recording();
    const link = createPersistedQueryLink({ sha256 }).concat(
      new HttpLink({ uri: `${s.url}/graphql`, fetch, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    );
    const apollo = new ApolloClient({ link, cache: new InMemoryCache() });
    const query = apolloGql`query ApolloAsks($id: ID!) { customer(customerId: $id) { customerId lastName } }`;
    for (let i = 0; i < 2; i++) {
      const { data } = await apollo.query<{ customer: { customerId: string } }>({
        query,
        variables: { id: customerId },
        fetchPolicy: "network-only",
      });
      assert.equal(data?.customer.customerId, customerId);
    }
    assert.deepEqual(
      sent.map((r) => [
        typeof r.body?.query,
        Boolean((r.body?.extensions as { persistedQuery?: unknown })?.persistedQuery),
      ]),
      [
        ["undefined", true],
        ["string", true],
        ["undefined", true],
      ],
    );
    apollo.stop();
  });
});

describe("GRAPHQL_PERSISTED_ONLY: the manifest as a safelist", () => {
  let s: TestServer;
  let customerId: string;
  before(async () => {
    s = await startServer({ graphql: { persistedOnly: true } });
    customerId = (await seedCustomer(s, 2)).customerId;
  });
  after(() => s.close());

  const post = (body: Record<string, unknown>) =>
    call(`${s.url}/graphql`, { method: "POST", json: body, headers: { accept: "application/graphql-response+json" } });

  it("is read from the environment", () => {
    assert.equal(configFromEnv({ GRAPHQL_PERSISTED_ONLY: "true" }).graphql.persistedOnly, true);
    assert.equal(configFromEnv({}).graphql.persistedOnly, false);
  });

  it("runs the shipped documents by documentId, by APQ hash, or by their exact text", async () => {
    const text = persistedDocuments[idOf(CustomerDocument)];
    for (const body of [
      { documentId: idOf(CustomerDocument) },
      { extensions: apq(hexOf(CustomerDocument)) },
      { query: text },
    ]) {
      const res = await post({ ...body, variables: { customerId } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.data.customer.customerId, customerId);
    }
  });

  it("refuses everything else with PERSISTED_QUERY_NOT_IN_LIST: other texts, introspection, unknown ids, APQ registration", async () => {
    const other = "query Mine($id: ID!) { customer(customerId: $id) { email } }";
    for (const body of [
      { query: other, variables: { id: customerId } },
      { query: "{ __schema { types { name } } }" },
      { documentId: `sha256:${"c".repeat(64)}` },
      { extensions: apq(sha256(other)), variables: { id: customerId } },
      { query: other, extensions: apq(sha256(other)), variables: { id: customerId } },
      { query: print(CustomerDocument), variables: { customerId } }, // the same operation printed differently
    ]) {
      const res = await post(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(codes(res.json), ["PERSISTED_QUERY_NOT_IN_LIST"], JSON.stringify(body));
      assert.equal(res.json.data, undefined, "nothing ran");
    }
    assert.deepEqual(
      codes((await post({ extensions: apq(sha256(other)), variables: { id: customerId } })).json),
      ["PERSISTED_QUERY_NOT_IN_LIST"],
      "nothing was registered",
    );
  });

  it("holds over graphql-ws and SSE too", async () => {
    const ws = createWsClient({
      url: `${s.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const sse = createSseClient({
      url: `${s.url}/graphql/stream`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    try {
      const unlisted = `subscription { orderStatusChanged(customerId: "${customerId}") { status } }`;
      await assert.rejects(ws.iterate({ query: unlisted }).next(), (errors: unknown) => {
        assert.deepEqual(codes({ errors: errors as never }), ["PERSISTED_QUERY_NOT_IN_LIST"]);
        return true;
      });
      const viaSse = await call(`${s.url}/graphql/stream`, {
        method: "POST",
        json: { query: "{ customers(first: 1) { customerId } }" },
        headers: { accept: "text/event-stream" },
      });
      assert.equal(viaSse.status, 400);
      assert.deepEqual(codes(viaSse.json), ["PERSISTED_QUERY_NOT_IN_LIST"]);
      const shipped = await sse
        .iterate({ query: persistedDocuments[idOf(CustomersDocument)], variables: { first: 1 } })
        .next();
      assert.equal((shipped.value as { data: { customers: unknown[] } }).data.customers.length, 1);
    } finally {
      await ws.dispose();
      sse.dispose();
    }
  });

  it("the typed client and its examples work unchanged: they only ever send shipped documents", async () => {
    const url = `${s.url}/graphql`;
    const result = await graphqlExample(url, ADMIN_TOKEN);
    assert.equal(result.updatedLastName, "Murray Hopper");
    assert.equal(result.afterDelete, "GONE");
    const subscription = await subscriptionExample(url, ADMIN_TOKEN);
    assert.deepEqual(
      subscription.received.map((r) => r.status),
      ["PAID", "SHIPPED"],
    );
  });
});
