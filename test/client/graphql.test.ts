// twinspec-client's GraphQL client against the real commerce server: typed queries and mutations, subscriptions over
// graphql-ws and graphql-sse hearing changes made over REST, reconnection after a cut connection (behind a TCP
// proxy) with the token asked again, error codes typed by the Code parameter, and a browser entry free of Node.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import {
  createGraphqlClient,
  GraphqlRequestError,
  type GraphqlClientOptions,
  type ReconnectOptions,
} from "twinspec-client/graphql";
import {
  CreateCustomerDocument,
  CustomerDocument,
  DeleteCustomerDocument,
  OrderStatusChangedDocument,
  PlaceOrderDocument,
  UpdateCustomerDocument,
  UpdateOrderStatusDocument,
  type OrderStatus,
} from "twinspec-commerce-client";
import { ITEMS, seedCustomer } from "../graphql/helpers.js";
import { ADMIN_TOKEN, token as signToken } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";
import { TcpProxy } from "../support/tcp-proxy.js";
import { sleep, until } from "../support/wait.js";

/** The codes this test expects the server to answer with: the type parameter `extensions.code` is checked against. */
type Code = "NOT_FOUND" | "GONE" | "BAD_REQUEST" | "PERSISTED_QUERY_NOT_FOUND";

/** true only when A and B are the same type */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Between reconnection attempts: short, so that several attempts meet the cut connection within a test. */
const quickly: ReconnectOptions = { wait: async () => void (await sleep(100)) };

describe("twinspec-client/graphql", () => {
  let s: TestServer;
  const listeners = () => s.app.bus.listenerCount("orderStatusChanged");
  before(async () => {
    s = await startServer();
  });
  after(() => s.close());

  const client = (options: Partial<GraphqlClientOptions> = {}) =>
    createGraphqlClient<Code>({ url: `${s.url}/graphql`, token: ADMIN_TOKEN, ...options });

  /** A REST write the subscriptions must hear: PATCH /orders/{orderId} as a merge patch (openapi.yaml's updateOrder). */
  async function patchStatus(orderId: string, status: OrderStatus) {
    const res = await call(`${s.url}/orders/${orderId}`, {
      method: "PATCH",
      body: JSON.stringify({ status }),
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(res.status, 200, res.text);
  }

  /** Subscribes and waits until the server listens; `next` is the first event's promise. */
  async function subscribed(gql: ReturnType<typeof client>, customerId: string, count = listeners() + 1) {
    const events = gql.subscribe(OrderStatusChangedDocument, { customerId });
    const next = events.next();
    await until(() => listeners() === count, "the subscription to listen", 5000);
    return { events, next };
  }

  it("queries and mutations return typed data; data() rejects with GraphqlRequestError carrying each error's code", async () => {
    const gql = client();
    const { createCustomer } = await gql.data(CreateCustomerDocument, {
      input: { firstName: "Grace", lastName: "Hopper", email: "grace@example.com" },
    });
    const customerId = createCustomer!.customerId;
    const { updateCustomer } = await gql.data(UpdateCustomerDocument, {
      customerId,
      input: { lastName: "Murray Hopper" },
    });
    assert.equal(updateCustomer?.lastName, "Murray Hopper");
    assert.equal((await gql.data(CustomerDocument, { customerId })).customer?.email, "grace@example.com");

    const missing = await gql.request(CustomerDocument, { customerId: "cus_nobody" });
    assert.deepEqual(
      missing.errors?.map((e) => e.extensions?.code),
      ["NOT_FOUND"],
    );
    await assert.rejects(gql.data(CustomerDocument, { customerId: "cus_nobody" }), (error: unknown) => {
      assert.ok(error instanceof GraphqlRequestError);
      assert.equal(error.errors[0].extensions?.code, "NOT_FOUND");
      assert.match(error.message, /^NOT_FOUND: /);
      return true;
    });

    assert.equal((await gql.data(DeleteCustomerDocument, { customerId })).deleteCustomer, customerId);
    await assert.rejects(gql.data(CustomerDocument, { customerId }), (error: GraphqlRequestError<Code>) => {
      assert.deepEqual(
        error.errors.map((e) => e.extensions?.code),
        ["GONE"],
      );
      return true;
    });
    await gql.close();
  });

  it("graphql-ws: a subscription hears a status change made over REST, then one made by the client's mutation", async () => {
    const { customerId } = await seedCustomer(s, 1);
    const order = await s.app.services.orders.place(customerId, { items: ITEMS });
    const gql = client();
    try {
      const { events, next } = await subscribed(gql, customerId);
      await patchStatus(order.orderId, "PAID");
      const change = (await next).value?.data?.orderStatusChanged;
      assert.deepEqual([change?.orderId, change?.status], [order.orderId, "PAID"]);
      const second = events.next();
      await gql.data(UpdateOrderStatusDocument, { orderId: order.orderId, status: "SHIPPED" });
      assert.equal((await second).value?.data?.orderStatusChanged.status, "SHIPPED");
      await events.return?.();
      await until(() => listeners() === 0, "the listener to be freed after return()");
    } finally {
      await gql.close();
    }
  });

  it('graphql-sse: the same over transport "sse", sending the hash first and the text when the server lacks it', async () => {
    const { customerId } = await seedCustomer(s, 2);
    const order = await s.app.services.orders.place(customerId, { items: ITEMS });
    const sent: { query?: string; extensions?: unknown }[] = [];
    const recording: typeof fetch = async (input, init) => {
      if (!(input instanceof Request) && String(input).endsWith("/graphql/stream"))
        sent.push(JSON.parse(init?.body as string));
      return fetch(input, init);
    };
    const gql = client({ transport: "sse", fetch: recording });
    try {
      const { events, next } = await subscribed(gql, customerId);
      await patchStatus(order.orderId, "PAID");
      assert.equal((await next).value?.data?.orderStatusChanged.status, "PAID");
      await events.return?.();
      await until(() => listeners() === 0, "the listener to be freed after return()");
      assert.deepEqual(
        sent.map((b) => b.query),
        [""],
        "the hash alone: the manifest has it",
      );

      // A document whose hash this server lacks (another build's manifest): hash → PERSISTED_QUERY_NOT_FOUND → text.
      const foreign = {
        ...OrderStatusChangedDocument,
        __meta__: { hash: `sha256:${"d".repeat(64)}` },
      } as typeof OrderStatusChangedDocument;
      sent.length = 0;
      const again = gql.subscribe(foreign, { customerId });
      const first = again.next();
      await until(() => listeners() === 1, "the subscription sent with its text to listen", 5000);
      await patchStatus(order.orderId, "SHIPPED");
      assert.equal((await first).value?.data?.orderStatusChanged.status, "SHIPPED");
      assert.deepEqual(
        sent.map((b) => typeof b.query === "string" && b.query.startsWith("subscription OrderStatusChanged")),
        [false, true],
      );
      await again.return?.();
      await until(() => listeners() === 0, "the listener to be freed after return()");
    } finally {
      await gql.close();
    }
  });

  it("persisted modes: documentId and the plain text, over HTTP and both transports; GET for hashed queries", async () => {
    const { customerId } = await seedCustomer(s, 4);
    const sent: {
      method: string;
      url: string;
      body?: { query?: string; documentId?: string; extensions?: { persistedQuery?: { sha256Hash: string } } };
    }[] = [];
    const recording: typeof fetch = async (input, init) => {
      sent.push({
        method: init?.method ?? "GET",
        url: input instanceof Request ? input.url : String(input),
        body: init?.body ? JSON.parse(init.body as string) : undefined,
      });
      return fetch(input, init);
    };
    const byGet = client({ fetch: recording, getForHashedQueries: true });
    assert.equal((await byGet.data(CustomerDocument, { customerId })).customer?.customerId, customerId);
    assert.deepEqual([sent[0].method, new URL(sent[0].url).searchParams.has("extensions")], ["GET", true]);

    const id = (CustomerDocument as unknown as { __meta__: { hash: string } }).__meta__.hash;
    for (const persisted of ["documentId", false] as const) {
      for (const transport of ["ws", "sse"] as const) {
        sent.length = 0;
        const gql = client({ fetch: recording, persisted, transport });
        try {
          assert.equal((await gql.data(CustomerDocument, { customerId })).customer?.customerId, customerId);
          const { documentId, query } = sent[0].body!;
          assert.deepEqual(
            persisted ? [documentId, query] : [documentId, query?.startsWith("query Customer")],
            persisted ? [id, undefined] : [undefined, true],
          );

          const order = await s.app.services.orders.place(customerId, { items: ITEMS });
          const { events, next } = await subscribed(gql, customerId, 1);
          await patchStatus(order.orderId, "PAID");
          assert.equal(
            (await next).value?.data?.orderStatusChanged.orderId,
            order.orderId,
            `${persisted} over ${transport}`,
          );
          await events.return?.();
          await until(() => listeners() === 0, "the listener to be freed");
          const stream = sent.find((r) => r.url.endsWith("/graphql/stream"))?.body;
          if (transport === "sse" && persisted) {
            // The id itself, no text and no hash: the server reads documentId from the SSE request's body too.
            assert.deepEqual(
              [stream?.documentId, stream?.query, stream?.extensions],
              [(OrderStatusChangedDocument as unknown as { __meta__: { hash: string } }).__meta__.hash, "", undefined],
            );
          }
        } finally {
          await gql.close();
        }
      }
    }
  });

  it("a refused subscription rejects with GraphqlRequestError over either transport", async () => {
    for (const transport of ["ws", "sse"] as const) {
      const gql = client({ transport });
      try {
        await assert.rejects(
          gql.subscribe(OrderStatusChangedDocument, { customerId: "cus_nobody" }).next(),
          (error: unknown) => {
            assert.ok(error instanceof GraphqlRequestError, `${transport}: ${error}`);
            assert.equal(error.errors[0].extensions?.code, "NOT_FOUND", transport);
            return true;
          },
        );
      } finally {
        await gql.close();
      }
    }
  });

  it("close() ends a subscription even while its next() waits for an event", async () => {
    const { customerId } = await seedCustomer(s, 3);
    for (const transport of ["ws", "sse"] as const) {
      const gql = client({ transport });
      const { next } = await subscribed(gql, customerId);
      await gql.close();
      assert.deepEqual(await next, { done: true, value: undefined }, transport);
      await until(() => listeners() === 0, `the ${transport} listener to be freed`);
    }
  });

  describe("behind a TCP proxy that cuts the connection", () => {
    let proxy: TcpProxy;
    beforeEach(async () => {
      proxy = await TcpProxy.start({ host: "127.0.0.1", port: Number(new URL(s.url).port) });
    });
    afterEach(() => proxy.close());
    const viaProxy = (options: Partial<GraphqlClientOptions>) =>
      client({ url: `http://127.0.0.1:${proxy.port}/graphql`, ...options });

    /** Cuts while subscribed, keeps the cut for `ms`, restores, and waits until the client has subscribed again. */
    async function cutAndRestore(ms: number) {
      await proxy.cut("refuse");
      await until(() => listeners() === 0, "the server to drop the cut subscription");
      await sleep(ms);
      await proxy.restore();
      await until(() => listeners() === 1, "the client to subscribe again", 10_000);
    }

    for (const [transport, reconnect, held] of [
      ["ws", quickly, 600],
      ["sse", undefined, 300],
    ] as const) {
      it(`${transport}: reconnects by itself${reconnect ? ", retrying while refused," : " (default backoff)"} and hears a change made after the cut`, async () => {
        const { customerId } = await seedCustomer(s, 10);
        const order = await s.app.services.orders.place(customerId, { items: ITEMS });
        const connecting: boolean[] = [];
        const connected: boolean[] = [];
        const gql = viaProxy({
          transport,
          reconnect,
          on: { connecting: (retry) => connecting.push(retry), connected: (retry) => connected.push(retry) },
        });
        try {
          const { next } = await subscribed(gql, customerId, 1);
          // The server listens before its answer's head reaches the client: cut only a connection the client has.
          await until(() => connected.length === 1, "the client to see its connection open");
          await cutAndRestore(held);
          await patchStatus(order.orderId, "PAID");
          const change = await next;
          assert.equal(change.value?.data?.orderStatusChanged.status, "PAID");
          assert.deepEqual(connected, [false, true], "connected, then reconnected");
          if (reconnect)
            assert.ok(
              connecting.filter((retry) => retry).length >= 2,
              `several attempts met the refusal: ${connecting}`,
            );
        } finally {
          await gql.close();
        }
      });
    }

    for (const transport of ["ws", "sse"] as const) {
      it(`${transport}: changes made while cut off arrive after the reconnection, once each (the document declares $after: it resumes)`, async () => {
        const { customerId } = await seedCustomer(s, 12);
        const order = await s.app.services.orders.place(customerId, { items: ITEMS });
        const gql = viaProxy({ transport, reconnect: quickly });
        try {
          const { events, next } = await subscribed(gql, customerId, 1);
          await patchStatus(order.orderId, "PAID");
          assert.equal((await next).value?.data?.orderStatusChanged.status, "PAID");
          await proxy.cut("refuse");
          await until(() => listeners() === 0, "the server to drop the cut subscription");
          await patchStatus(order.orderId, "SHIPPED");
          await patchStatus(order.orderId, "DELIVERED");
          await proxy.restore();
          const after = [(await events.next()).value, (await events.next()).value];
          assert.deepEqual(
            after.map((r) => r?.data?.orderStatusChanged.status),
            ["SHIPPED", "DELIVERED"],
          );
        } finally {
          await gql.close();
        }
      });
    }

    it("a token function is asked for every HTTP request and again for each reconnection", async () => {
      const { customerId } = await seedCustomer(s, 11);
      const order = await s.app.services.orders.place(customerId, { items: ITEMS });
      let calls = 0;
      const token = async () => signToken(`caller-${++calls}`, "admin");
      for (const transport of ["ws", "sse"] as const) {
        calls = 0;
        const gql = viaProxy({ transport, token, reconnect: quickly });
        try {
          await gql.data(CustomerDocument, { customerId });
          await gql.data(CustomerDocument, { customerId });
          assert.equal(calls, 2, "once per HTTP request");
          const { next } = await subscribed(gql, customerId, 1);
          assert.equal(calls, 3, `${transport}: once for the connection`);
          await cutAndRestore(0);
          assert.ok(calls >= 4, `${transport}: asked again for the reconnection (${calls})`);
          await patchStatus(order.orderId, transport === "ws" ? "PAID" : "SHIPPED");
          assert.ok((await next).value?.data, "the fresh token was accepted");
        } finally {
          await gql.close();
        }
      }
    });

    it("reconnection is bounded by attempts, and reconnect: false fails at the first cut", async () => {
      const { customerId } = await seedCustomer(s, 12);
      for (const [transport, reconnect] of [
        ["ws", { ...quickly, attempts: 2 }],
        ["sse", { ...quickly, attempts: 2 }],
        ["ws", false],
        ["sse", false],
      ] as const) {
        const connecting: boolean[] = [];
        const gql = viaProxy({ transport, reconnect, on: { connecting: (retry) => connecting.push(retry) } });
        try {
          const { next } = await subscribed(gql, customerId, 1);
          await proxy.cut("refuse");
          await assert.rejects(next, (error: unknown) => {
            assert.ok(error instanceof Error && !(error instanceof GraphqlRequestError), `${transport}: ${error}`);
            return true;
          });
          assert.equal(
            connecting.filter((retry) => retry).length,
            reconnect ? 2 : 0,
            `${transport} ${JSON.stringify(reconnect)}: ${connecting}`,
          );
        } finally {
          await gql.close();
          await proxy.restore();
          await until(() => listeners() === 0, "no subscription left");
        }
      }
    });
  });

  it("extensions.code is typed by the Code parameter (tsc checks this file)", async () => {
    const gql = client();
    const result = await gql.request(CustomerDocument, { customerId: "cus_nobody" });
    const code = result.errors?.[0].extensions?.code;
    const exactly: Equal<typeof code, Code | undefined> = true;
    // @ts-expect-error a code outside the union cannot be compared with
    const outside = code === "NO_SUCH_CODE";
    assert.deepEqual([exactly, outside, code], [true, false, "NOT_FOUND"]);
    await assert.rejects(
      gql.data(CustomerDocument, { customerId: "cus_nobody" }),
      (error: GraphqlRequestError<Code>) => {
        const first: Code | undefined = error.errors[0].extensions?.code;
        return first === "NOT_FOUND";
      },
    );
    // Never run: what must not compile.
    const mistakes = async () => {
      // @ts-expect-error the operation did not select this field
      void (await gql.data(PlaceOrderDocument, { customerId: "c", input: { items: ITEMS } })).placeOrder?.customerId;
      // @ts-expect-error a variable the operation does not declare
      await gql.request(CustomerDocument, { id: "c" });
    };
    void mistakes;
  });

  it("the browser entry bundles for the browser with neither ws nor any node: module", async () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const bundle = (entry: string) =>
      build({
        absWorkingDir: root,
        entryPoints: [`packages/twinspec-client/src/graphql/${entry}`],
        bundle: true,
        write: false,
        format: "esm",
        platform: "browser",
        conditions: ["twinspec-source", "browser"],
        external: ["graphql"],
        metafile: true,
        logLevel: "silent",
      });
    const modules = (result: Awaited<ReturnType<typeof bundle>>) => {
      const inputs = Object.entries(result.metafile.inputs);
      return {
        files: inputs.map(([path]) => path),
        imports: inputs.flatMap(([, input]) => input.imports.map((i) => i.path)),
      };
    };
    const browser = modules(await bundle("browser.ts"));
    assert.ok(
      browser.files.some((f) => f.includes("graphql-ws")) && browser.files.some((f) => f.includes("graphql-sse")),
      "both transports are in",
    );
    assert.deepEqual(
      browser.files.filter((f) => /node_modules\/ws\//.test(f)),
      [],
    );
    assert.deepEqual(
      browser.imports.filter((i) => i.startsWith("node:") || i === "ws"),
      [],
    );
    // The check sees what it looks for: Node's entry does take ws in.
    const node = modules(await bundle("node.ts"));
    assert.ok(
      node.files.some((f) => /node_modules\/ws\//.test(f)),
      "node.ts loads ws",
    );
  });
});
