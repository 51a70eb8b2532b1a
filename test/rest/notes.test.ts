// Order notes, a resource owned through its parent (x-resource owner: { through: orders, by: orderId }): the order's
// customer owns them at request time, so a merge that moves the order moves them too, over REST and GraphQL alike;
// and the order's own 404 / 410 is answered for them.
import assert from "node:assert/strict";
import { token } from "twinspec-dev/testing";
import { newCustomer, newOrder } from "../support/fixtures.js";
import { call, gql, startServer, type TestServer } from "../support/server.js";

describe("order notes: owned through the order", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const as = (t: string) => ({ Authorization: `Bearer ${t}` });
  const read = (sub: string) => token(sub, "orders:read orders:write");

  it("the order's customer reads and writes them over both transports, before and after a merge; another customer gets 403", async () => {
    const from = await newCustomer(s.url);
    const into = await newCustomer(s.url);
    const stranger = await newCustomer(s.url);
    const order = await newOrder(s.url, from.customerId);
    const owner = await read(from.customerId);
    const added = await call(`${s.url}/orders/${order.orderId}/notes`, {
      method: "POST",
      json: { text: "ring twice" },
      headers: as(owner),
    });
    assert.equal(added.status, 201, added.text);
    const noteId: string = added.json.noteId;
    const byGraphql = async (t: string) =>
      gql(
        s.url,
        `query($n: ID!, $o: ID!) { orderNote(noteId: $n) { text } order(orderId: $o) { notes { noteId } } }`,
        { n: noteId, o: order.orderId },
        { token: t },
      );

    assert.equal((await call(`${s.url}/notes/${noteId}`, { headers: as(owner) })).status, 200);
    assert.deepEqual((await byGraphql(owner)).json.data, {
      orderNote: { text: "ring twice" },
      order: { notes: [{ noteId }] },
    });

    const merged = await call(`${s.url}/customers/${from.customerId}/merge`, {
      method: "POST",
      json: { into: into.customerId },
    });
    assert.equal(merged.status, 200, merged.text);
    const survivor = await read(into.customerId);
    assert.equal((await call(`${s.url}/notes/${noteId}`, { headers: as(survivor) })).status, 200);
    assert.equal(
      (await call(`${s.url}/orders/${order.orderId}/notes`, { headers: as(survivor) })).json.items.length,
      1,
    );
    assert.equal(
      (
        await call(`${s.url}/orders/${order.orderId}/notes`, {
          method: "POST",
          json: { text: "after the merge" },
          headers: as(survivor),
        })
      ).status,
      201,
    );
    assert.deepEqual((await byGraphql(survivor)).json.data.orderNote, { text: "ring twice" });

    const other = await read(stranger.customerId);
    assert.equal((await call(`${s.url}/notes/${noteId}`, { headers: as(other) })).status, 403);
    assert.equal((await call(`${s.url}/orders/${order.orderId}/notes`, { headers: as(other) })).status, 403);
    const refused = await byGraphql(other);
    assert.equal(refused.json.data.orderNote, null);
    assert.equal(refused.json.errors[0].extensions.code, "FORBIDDEN");
  });

  it("answers the order's 404 and 410 (over GraphQL too) before anything of the note's runs", async () => {
    const customer = await newCustomer(s.url);
    const order = await newOrder(s.url, customer.customerId);
    const note = (await call(`${s.url}/orders/${order.orderId}/notes`, { method: "POST", json: { text: "fragile" } }))
      .json;
    assert.equal((await call(`${s.url}/orders/ord_nothing/notes`)).status, 404);
    assert.equal(
      (await call(`${s.url}/orders/ord_nothing/notes`, { method: "POST", json: { text: "x" } })).status,
      404,
    );
    assert.equal((await call(`${s.url}/customers/${customer.customerId}`, { method: "DELETE" })).status, 204);
    assert.equal((await call(`${s.url}/notes/${note.noteId}`)).status, 410);
    assert.equal((await call(`${s.url}/orders/${order.orderId}/notes`)).status, 410);
    const res = await gql(s.url, `query($n: ID!) { orderNote(noteId: $n) { text } }`, { n: note.noteId });
    assert.equal(res.json.errors[0].extensions.code, "GONE", res.text);
    const add = await gql(
      s.url,
      `mutation($o: ID!) { addOrderNote(orderId: $o, input: { text: "late" }) { noteId } }`,
      { o: order.orderId },
    );
    assert.equal(add.json.errors[0].extensions.code, "GONE", add.text);
  });
});
