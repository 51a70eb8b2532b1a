// The webhook endpoints as a resource of the framework (Twinspec's part webhook-endpoints, included by openapi.yaml's
// x-twinspec-parts), over REST and GraphQL against a real server and a real receiver on 127.0.0.1: registered,
// listed, read, changed, paused and resumed, rotated and deleted; a customer's token sees and registers only its own
// (and its endpoint receives only its events), an admin's every one; bad input names the field; one event redelivered
// arrives again with the same webhook-id; attempts are listed, and pruned.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { parse } from "yaml";
import { token } from "../support/auth.js";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";
import { until } from "../support/wait.js";
import { FAST, receiver } from "../support/webhooks.js";

const SCOPES = "webhooks:read webhooks:write orders:read orders:write customers:read";
const EVENTS = ["orderStatusChanged"];

describe("webhooks: the endpoints' API (REST and GraphQL)", function () {
  this.timeout(60_000);
  let s: TestServer;
  let r: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    s = await startServer({ webhooks: FAST });
    r = await receiver();
  });
  after(async () => {
    await s?.close();
    await r?.close();
  });

  /** A new customer, and a token acting for it. */
  async function customer() {
    const made = await call(`${s.url}/customers`, { method: "POST", json: ada });
    assert.equal(made.status, 201, made.text);
    const id = made.json.customerId as string;
    return { id, token: await token(id, SCOPES) };
  }
  const as = (bearer: string) => ({ authorization: `Bearer ${bearer}` });
  const rest = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${s.url}${path}`, init);
  const register = (bearer: string, json: unknown = { url: r.url, events: EVENTS }) =>
    rest("/webhook-endpoints", { method: "POST", json, headers: as(bearer) });
  const patch = (id: string, bearer: string, json: unknown) =>
    rest(`/webhook-endpoints/${id}`, {
      method: "PATCH",
      json,
      headers: { ...as(bearer), "content-type": "application/merge-patch+json" },
    });
  async function order(customerId: string) {
    const placed = await rest(`/customers/${customerId}/orders`, {
      method: "POST",
      json: { items: [{ sku: "a", quantity: 1, unitPrice: 1 }] },
    });
    assert.equal(placed.status, 201, placed.text);
    return placed.json.orderId as string;
  }
  async function setStatus(orderId: string, status: string) {
    const res = await rest(`/orders/${orderId}`, {
      method: "PATCH",
      json: { status },
      headers: { "content-type": "application/merge-patch+json" },
    });
    assert.equal(res.status, 200, res.text);
  }
  /** What the receiver got at `url` (an endpoint's own query string tells them apart), verified with `secret`. */
  const deliveries = (url: string) =>
    r.got.filter((g) => g.url === new URL(url).pathname + new URL(url).search).map((g) => g);
  const urlFor = (name: string) => `${r.url}?${name}`;

  it("REST: a customer registers, lists, reads, pauses, resumes, rotates and deletes its endpoint; it receives only its own events", async () => {
    const ann = await customer();
    const bob = await customer();
    const created = await register(ann.token, { url: urlFor("ann"), events: EVENTS });
    assert.equal(created.status, 201, created.text);
    const { endpoint, secret } = created.json;
    assert.match(secret, /^whsec_/);
    assert.equal(endpoint.owner, ann.id);
    assert.deepEqual(endpoint.events, EVENTS);
    assert.equal(created.headers.get("location"), `/webhook-endpoints/${endpoint.endpointId}`);

    // Read and listed by its owner, never with its secret; another customer sees neither.
    const read = await rest(`/webhook-endpoints/${endpoint.endpointId}`, { headers: as(ann.token) });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.json.url, urlFor("ann"));
    assert.ok(!read.text.includes(secret));
    const listed = await rest("/webhook-endpoints", { headers: as(ann.token) });
    assert.deepEqual(
      listed.json.items.map((e: { endpointId: string }) => e.endpointId),
      [endpoint.endpointId],
    );
    const theirs = await rest(`/webhook-endpoints/${endpoint.endpointId}`, { headers: as(bob.token) });
    assert.equal(theirs.status, 403, theirs.text);
    assert.equal(theirs.headers.get("content-type"), "application/problem+json");
    const bobs = await rest("/webhook-endpoints", { headers: as(bob.token) });
    assert.deepEqual(bobs.json.items, []);
    for (const [method, path, json] of [
      ["PATCH", "", { paused: true }],
      ["DELETE", "", undefined],
      ["POST", "/rotate-secret", undefined],
      ["GET", "/attempts", undefined],
      ["POST", "/redeliveries", { since: "0" }],
    ] as const) {
      const res = await rest(`/webhook-endpoints/${endpoint.endpointId}${path}`, {
        method,
        json,
        headers: {
          ...as(bob.token),
          ...(method === "PATCH" ? { "content-type": "application/merge-patch+json" } : {}),
        },
      });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    }

    // Its own orders' changes reach it, signed; Bob's do not.
    const annOrder = await order(ann.id);
    const bobOrder = await order(bob.id);
    await setStatus(bobOrder, "PAID");
    await setStatus(annOrder, "PAID");
    await until(() => deliveries(urlFor("ann")).length >= 1, "Ann's delivery");
    const hook = new Webhook(secret);
    const first = deliveries(urlFor("ann"))[0];
    const body = hook.verify(first.body, first.headers as Record<string, string>) as { data: { orderId: string } };
    assert.equal(body.data.orderId, annOrder);

    // Paused: nothing goes out; resumed: what waited goes, in order.
    const paused = await patch(endpoint.endpointId, ann.token, { paused: true });
    assert.deepEqual([paused.status, paused.json.paused], [200, true], paused.text);
    await setStatus(annOrder, "SHIPPED");
    await setStatus(bobOrder, "SHIPPED");
    const during = deliveries(urlFor("ann")).length;
    const resumed = await patch(endpoint.endpointId, ann.token, { paused: false });
    assert.deepEqual([resumed.status, resumed.json.paused], [200, false], resumed.text);
    await until(() => deliveries(urlFor("ann")).length >= 2, "the delivery that waited");
    assert.equal(during, 1, "nothing was delivered while paused");
    const orders = deliveries(urlFor("ann")).map((g) => JSON.parse(g.body).data);
    assert.deepEqual(
      orders.map((o: { orderId: string; status: string }) => [o.orderId, o.status]),
      [
        [annOrder, "PAID"],
        [annOrder, "SHIPPED"],
      ],
    );

    // A change of URL and events is answered as the endpoint now is.
    const moved = await patch(endpoint.endpointId, ann.token, { url: urlFor("ann2"), events: EVENTS });
    assert.deepEqual([moved.status, moved.json.url], [200, urlFor("ann2")], moved.text);

    // Rotated: the next delivery verifies with the new secret and with the old one.
    const rotated = await rest(`/webhook-endpoints/${endpoint.endpointId}/rotate-secret`, {
      method: "POST",
      headers: as(ann.token),
    });
    assert.equal(rotated.status, 200, rotated.text);
    assert.ok(Date.parse(rotated.json.previousValidUntil) > Date.now());
    await setStatus(annOrder, "DELIVERED");
    await until(() => deliveries(urlFor("ann2")).length >= 1, "the delivery after the rotation");
    const next = deliveries(urlFor("ann2"))[0];
    for (const key of [secret, rotated.json.secret])
      assert.equal(
        (new Webhook(key).verify(next.body, next.headers as Record<string, string>) as { type: string }).type,
        "orderStatusChanged",
      );

    // Its attempts: time, status, latency, outcome, newest first; a page at a time.
    await until(
      async () =>
        (await rest(`/webhook-endpoints/${endpoint.endpointId}/attempts`, { headers: as(ann.token) })).json.items
          .length >= 3,
      "three attempts listed",
    );
    const attempts = await rest(`/webhook-endpoints/${endpoint.endpointId}/attempts?limit=2`, {
      headers: as(ann.token),
    });
    assert.equal(attempts.status, 200, attempts.text);
    assert.equal(attempts.json.items.length, 2);
    const [newest] = attempts.json.items;
    assert.equal(newest.eventId, next.headers["webhook-id"]);
    assert.deepEqual([newest.status, newest.outcome, newest.attempt, newest.error], [204, "delivered", 1, null]);
    assert.ok(Number.isInteger(newest.latencyMs) && Date.parse(newest.at) > 0);
    assert.ok(attempts.json.nextCursor);
    assert.match(attempts.headers.get("link")!, /rel="next"/);
    const older = await rest(
      `/webhook-endpoints/${endpoint.endpointId}/attempts?limit=2&cursor=${attempts.json.nextCursor}`,
      { headers: as(ann.token) },
    );
    assert.equal(older.json.items[0].eventId, first.headers["webhook-id"]);

    // Deleted: 204, then 410 for everything about it; nothing more is sent.
    const deleted = await rest(`/webhook-endpoints/${endpoint.endpointId}`, {
      method: "DELETE",
      headers: as(ann.token),
    });
    assert.equal(deleted.status, 204, deleted.text);
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { paused: true }],
      ["DELETE", "", undefined],
      ["POST", "/rotate-secret", undefined],
      ["GET", "/attempts", undefined],
      ["POST", "/redeliveries", { since: "0" }],
    ] as const) {
      const res = await rest(`/webhook-endpoints/${endpoint.endpointId}${path}`, {
        method,
        json,
        headers: {
          ...as(ann.token),
          ...(method === "PATCH" ? { "content-type": "application/merge-patch+json" } : {}),
        },
      });
      assert.equal(res.status, 410, `${method} ${path}: ${res.text}`);
    }
    assert.deepEqual((await rest("/webhook-endpoints", { headers: as(ann.token) })).json.items, []);
  });

  it("REST: an admin's endpoint receives every customer's events and the admin lists every endpoint; unknown ids are 404", async () => {
    const ann = await customer();
    const bob = await customer();
    const admin = await register((await token("ops", "admin")) as string, { url: urlFor("admin"), events: EVENTS });
    assert.equal(admin.status, 201, admin.text);
    assert.equal(admin.json.endpoint.owner, null);
    const annEndpoint = (await register(ann.token, { url: urlFor("ann-only"), events: EVENTS })).json.endpoint;
    const all = await rest("/webhook-endpoints?limit=100");
    const ids = all.json.items.map((e: { endpointId: string }) => e.endpointId);
    assert.ok(ids.includes(admin.json.endpoint.endpointId) && ids.includes(annEndpoint.endpointId), all.text);
    // An admin acts on a customer's endpoint; a customer not on an admin's.
    assert.equal((await rest(`/webhook-endpoints/${annEndpoint.endpointId}`)).status, 200);
    assert.equal(
      (await rest(`/webhook-endpoints/${admin.json.endpoint.endpointId}`, { headers: as(ann.token) })).status,
      403,
    );

    const [annOrder, bobOrder] = [await order(ann.id), await order(bob.id)];
    await setStatus(annOrder, "PAID");
    await setStatus(bobOrder, "PAID");
    await until(() => deliveries(urlFor("admin")).length >= 2, "both customers' events at the admin's endpoint");
    await until(() => deliveries(urlFor("ann-only")).length >= 1, "Ann's event at hers");
    assert.deepEqual(
      deliveries(urlFor("admin")).map((g) => JSON.parse(g.body).data.orderId),
      [annOrder, bobOrder],
    );
    // Ann's endpoint got Ann's event only: its attempts name one event, and the receiver one delivery.
    await until(
      async () =>
        (await rest(`/webhook-endpoints/${annEndpoint.endpointId}/attempts`)).json.items.length === 1 &&
        deliveries(urlFor("ann-only")).length === 1,
      "one attempt at Ann's endpoint",
    );
    assert.equal(JSON.parse(deliveries(urlFor("ann-only"))[0].body).data.orderId, annOrder);

    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { paused: true }],
      ["DELETE", "", undefined],
      ["POST", "/rotate-secret", undefined],
      ["GET", "/attempts", undefined],
      ["POST", "/redeliveries", { since: "0" }],
    ] as const) {
      const res = await rest(`/webhook-endpoints/whe_nothing_here${path}`, {
        method,
        json,
        headers: method === "PATCH" ? { "content-type": "application/merge-patch+json" } : {},
      });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    }
  });

  it("REST: one event redelivered arrives again with the same webhook-id; every event since an id, again in order", async () => {
    const ann = await customer();
    const created = (await register(ann.token, { url: urlFor("redeliver"), events: EVENTS })).json;
    const id = created.endpoint.endpointId;
    const o = await order(ann.id);
    await setStatus(o, "PAID");
    await setStatus(o, "SHIPPED");
    await until(() => deliveries(urlFor("redeliver")).length >= 2, "two deliveries");
    const [paid, shipped] = deliveries(urlFor("redeliver")).map((g) => g.headers["webhook-id"] as string);

    const one = await rest(`/webhook-endpoints/${id}/redeliveries`, {
      method: "POST",
      json: { eventId: paid },
      headers: as(ann.token),
    });
    assert.equal(one.status, 202, one.text);
    assert.deepEqual(one.json, { endpointId: id, eventId: paid });
    await until(() => deliveries(urlFor("redeliver")).length >= 3, "the redelivery");
    const again = deliveries(urlFor("redeliver"))[2];
    assert.equal(again.headers["webhook-id"], paid);
    const verified = new Webhook(created.secret).verify(again.body, again.headers as Record<string, string>) as {
      data: { status: string };
    };
    assert.equal(verified.data.status, "PAID");

    const since = await rest(`/webhook-endpoints/${id}/redeliveries`, {
      method: "POST",
      json: { since: String(Number(paid) - 1) },
      headers: as(ann.token),
    });
    assert.equal(since.status, 202, since.text);
    await until(() => deliveries(urlFor("redeliver")).length >= 5, "the events since");
    assert.deepEqual(
      deliveries(urlFor("redeliver"))
        .slice(3)
        .map((g) => g.headers["webhook-id"]),
      [paid, shipped],
    );
  });

  it("REST: bad input is a 400 or 422 problem naming the field", async () => {
    const ann = await customer();
    const problem = async (
      res: Awaited<ReturnType<typeof call>>,
      status: number,
      pointer: string,
      message?: RegExp,
    ) => {
      assert.equal(res.status, status, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      const named = res.json.errors?.find((e: { pointer: string }) => e.pointer === pointer);
      assert.ok(named, `no error at ${pointer}: ${res.text}`);
      if (message) assert.match(named.message, message);
    };
    await problem(await register(ann.token, { url: "not a url", events: EVENTS }), 400, "/url");
    await problem(await register(ann.token, { url: r.url, events: ["orderShipped"] }), 400, "/events/0");
    await problem(await register(ann.token, { url: r.url, events: [] }), 400, "/events");
    await problem(await register(ann.token, { url: r.url, events: EVENTS, extra: 1 }), 400, "/extra");
    await problem(await register(ann.token, { url: "ftp://example.com/x", events: EVENTS }), 422, "/url", /http/);
    await problem(
      await register(ann.token, { url: `https://example.com/${"x".repeat(2100)}`, events: EVENTS }),
      400,
      "/url",
    );
    // Registering for an event type needs its subscription's scopes (orders:read for orderStatusChanged).
    await problem(
      await register(await token(ann.id, "webhooks:write"), { url: r.url, events: EVENTS }),
      422,
      "/events/0",
      /orders:read/,
    );
    const big = await register(ann.token, { url: r.url, events: EVENTS, pad: "x".repeat(2 * 1024 * 1024) });
    assert.equal(big.status, 413, big.text);
    const typed = await rest("/webhook-endpoints", {
      method: "POST",
      body: "url=x",
      headers: { ...as(ann.token), "content-type": "application/x-www-form-urlencoded" },
    });
    assert.equal(typed.status, 415, typed.text);

    const id = (await register(ann.token, { url: r.url, events: EVENTS })).json.endpoint.endpointId;
    await problem(await patch(id, ann.token, { paused: "yes" }), 400, "/paused");
    await problem(await patch(id, ann.token, { url: "http://[::1" }), 400, "/url");
    await problem(await patch(id, ann.token, { url: "ftp://example.com/hooks" }), 422, "/url", /http/);
    await problem(
      await patch(id, await token(ann.id, "webhooks:write"), { events: EVENTS }),
      422,
      "/events/0",
      /orders:read/,
    );
    const redeliver = (json: unknown) =>
      rest(`/webhook-endpoints/${id}/redeliveries`, { method: "POST", json, headers: as(ann.token) });
    await problem(await redeliver({ eventId: "1", since: "0" }), 422, "/since");
    await problem(await redeliver({}), 422, "");
    await problem(await redeliver({ eventId: "x" }), 400, "/eventId");
    await problem(await redeliver({ eventId: "999999999" }), 422, "/eventId", /not in the event log/);
    await problem(await redeliver({ since: "999999999" }), 422, "/since", /after the last event/);
    // An event of another customer's is not one Ann's endpoint receives.
    const bob = await customer();
    const bobOrder = await order(bob.id);
    await setStatus(bobOrder, "PAID");
    const logged = await s.app.bus.read!("orderStatusChanged", 0, 1000);
    const bobs = logged.find((e) => (e.event as { orderId: string }).orderId === bobOrder)!;
    await problem(await redeliver({ eventId: String(bobs.position) }), 422, "/eventId", /not one this endpoint/);
    const limit = await rest("/webhook-endpoints?limit=0", { headers: as(ann.token) });
    assert.equal(limit.status, 400, limit.text);
    assert.equal(limit.json.errors[0].in, "query");
  });

  it("GraphQL: the same endpoints, the same ownership and the same bad input, with the field named", async () => {
    const ann = await customer();
    const bob = await customer();
    const fields = "endpointId owner url events paused failing position createdAt updatedAt";
    const made = await gql(
      s.url,
      `mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${fields} } } }`,
      { input: { url: urlFor("gql"), events: EVENTS } },
      { token: ann.token },
    );
    assert.equal(made.json.errors, undefined, made.text);
    const { endpoint, secret } = made.json.data.createWebhookEndpoint;
    assert.match(secret, /^whsec_/);
    assert.equal(endpoint.owner, ann.id);
    const id = endpoint.endpointId as string;

    // The same endpoint over REST, and the other way round.
    const overRest = await rest(`/webhook-endpoints/${id}`, { headers: as(ann.token) });
    assert.deepEqual(overRest.json, endpoint);
    const listed = await gql(s.url, `{ webhookEndpoints { endpointId } }`, {}, { token: ann.token });
    assert.deepEqual(listed.json.data.webhookEndpoints, [{ endpointId: id }]);
    const bobList = await gql(s.url, `{ webhookEndpoints { endpointId } }`, {}, { token: bob.token });
    assert.deepEqual(bobList.json.data.webhookEndpoints, []);
    const forbidden = await gql(
      s.url,
      `query($id: ID!) { webhookEndpoint(endpointId: $id) { url } }`,
      { id },
      { token: bob.token },
    );
    assert.equal(forbidden.json.errors?.[0]?.extensions?.code, "FORBIDDEN", forbidden.text);

    const paused = await gql(
      s.url,
      `mutation($id: ID!) { updateWebhookEndpoint(endpointId: $id, input: { paused: true }) { paused } }`,
      { id },
      { token: ann.token },
    );
    assert.deepEqual(paused.json.data, { updateWebhookEndpoint: { paused: true } }, paused.text);
    const resumed = await gql(
      s.url,
      `mutation($id: ID!) { updateWebhookEndpoint(endpointId: $id, input: { paused: false }) { paused } }`,
      { id },
      { token: ann.token },
    );
    assert.deepEqual(resumed.json.data, { updateWebhookEndpoint: { paused: false } });

    const o = await order(ann.id);
    await setStatus(o, "PAID");
    await until(() => deliveries(urlFor("gql")).length >= 1, "a delivery");
    const delivered = deliveries(urlFor("gql"))[0];
    new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>);
    await until(
      async () =>
        (
          await gql(
            s.url,
            `query($id: ID!) { webhookAttempts(endpointId: $id) { eventId status outcome latencyMs at } }`,
            { id },
            { token: ann.token },
          )
        ).json.data?.webhookAttempts?.length === 1,
      "the attempt listed over GraphQL",
    );
    const attempts = await gql(
      s.url,
      `query($id: ID!) { webhookAttempts(endpointId: $id) { eventId status outcome } }`,
      { id },
      { token: ann.token },
    );
    assert.deepEqual(attempts.json.data.webhookAttempts, [
      { eventId: delivered.headers["webhook-id"], status: 204, outcome: "delivered" },
    ]);

    const redelivered = await gql(
      s.url,
      `mutation($id: ID!, $e: String) { redeliverWebhookEvents(endpointId: $id, input: { eventId: $e }) { endpointId eventId } }`,
      { id, e: delivered.headers["webhook-id"] },
      { token: ann.token },
    );
    assert.deepEqual(redelivered.json.data.redeliverWebhookEvents, {
      endpointId: id,
      eventId: delivered.headers["webhook-id"],
    });
    await until(() => deliveries(urlFor("gql")).length >= 2, "the redelivery");
    assert.equal(deliveries(urlFor("gql"))[1].headers["webhook-id"], delivered.headers["webhook-id"]);

    const rotated = await gql(
      s.url,
      `mutation($id: ID!) { rotateWebhookEndpointSecret(endpointId: $id) { endpointId secret previousValidUntil } }`,
      { id },
      { token: ann.token },
    );
    assert.match(rotated.json.data.rotateWebhookEndpointSecret.secret, /^whsec_/);

    // Bad input: BAD_USER_INPUT naming the argument and the field.
    const bad = async (
      query: string,
      variables: Record<string, unknown>,
      path: (string | number)[],
      bearer = ann.token,
    ) => {
      const res = await gql(s.url, query, variables, { token: bearer });
      const error = res.json.errors?.[0];
      assert.equal(error?.extensions?.code, "BAD_USER_INPUT", res.text);
      assert.ok(
        error.extensions.invalid.some(
          (e: { path: (string | number)[] }) => JSON.stringify(e.path) === JSON.stringify(path),
        ),
        res.text,
      );
    };
    const create = `mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }`;
    await bad(create, { input: { url: "not a url", events: EVENTS } }, ["input", "url"]);
    await bad(create, { input: { url: "ftp://example.com/x", events: EVENTS } }, ["input", "url"]);
    await bad(create, { input: { url: r.url, events: [] } }, ["input", "events"]);
    await bad(
      create,
      { input: { url: r.url, events: EVENTS } },
      ["input", "events", 0],
      await token(ann.id, "webhooks:write"),
    );
    await bad(
      `mutation($id: ID!) { redeliverWebhookEvents(endpointId: $id, input: { eventId: "1", since: "0" }) { endpointId } }`,
      { id },
      ["input", "since"],
    );
    const unknown = await gql(s.url, create, { input: { url: r.url, events: ["nope"] } }, { token: ann.token });
    assert.equal(unknown.json.errors?.[0]?.extensions?.code, "BAD_USER_INPUT", unknown.text);

    const deleted = await gql(
      s.url,
      `mutation($id: ID!) { deleteWebhookEndpoint(endpointId: $id) }`,
      { id },
      { token: ann.token },
    );
    assert.deepEqual(deleted.json.data, { deleteWebhookEndpoint: id });
    const gone = await gql(
      s.url,
      `query($id: ID!) { webhookEndpoint(endpointId: $id) { url } }`,
      { id },
      { token: ann.token },
    );
    assert.equal(gone.json.errors?.[0]?.extensions?.code, "GONE", gone.text);
  });

  it("/openapi.json and /openapi.yaml serve the part merged in: its paths, scopes, statuses and event types", async () => {
    const json = await call(`${s.url}/openapi.json`);
    const yaml = parse((await call(`${s.url}/openapi.yaml`)).text);
    for (const doc of [json.json, yaml]) {
      assert.equal(doc["x-twinspec-parts"][0], "webhook-endpoints");
      const create = doc.paths["/webhook-endpoints"].post;
      assert.deepEqual(create.security, [{ bearerAuth: ["webhooks:write"] }]);
      assert.ok(["201", "400", "401", "403", "422", "429"].every((status) => status in create.responses));
      assert.ok("webhooks:read" in doc.components.securitySchemes.bearerAuth["x-scopes"]);
      assert.deepEqual(doc.components.schemas.WebhookEventType.enum, Object.keys(doc.webhooks));
      // The application's own paths are still there.
      assert.ok(doc.paths["/customers"].get);
    }
  });

  it("attempts are pruned: older than their retention, and beyond each endpoint's newest", async () => {
    const ann = await customer();
    const id = (await register(ann.token, { url: urlFor("prune"), events: EVENTS })).json.endpoint.endpointId;
    const o = await order(ann.id);
    for (const status of ["PAID", "SHIPPED", "DELIVERED"]) await setStatus(o, status);
    await until(async () => (await s.app.webhooks!.endpoints.attempts(id)).length === 3, "three attempts");
    const db = s.store.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("twinspec_webhook_attempts")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("endpoint_id", "=", id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // The oldest attempt made long ago: pruned by age.
    const [oldest] = (await s.app.webhooks!.endpoints.attempts(id)).slice(-1);
    await db
      .updateTable("twinspec_webhook_attempts")
      .set({ at: Date.now() - 30 * 24 * 3600_000 })
      .where("endpoint_id", "=", id)
      .where("position", "=", oldest.eventId)
      .execute();
    assert.ok((await s.app.webhooks!.pruneAttempts()) >= 1);
    assert.equal(await count(), 2);
    assert.deepEqual(
      (await s.app.webhooks!.endpoints.attempts(id)).map((a) => a.eventId).includes(oldest.eventId),
      false,
    );
    // Beyond the newest N of an endpoint (of every endpoint): pruned by count, the newest kept.
    const [newest] = await s.app.webhooks!.endpoints.attempts(id);
    assert.ok((await s.app.webhooks!.endpoints.pruneAttempts(0, 1)) >= 1);
    assert.deepEqual(
      (await s.app.webhooks!.endpoints.attempts(id)).map((a) => a.eventId),
      [newest.eventId],
    );
  });
});
