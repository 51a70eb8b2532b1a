// The mock server's webhooks, on the fixture (noteChanged): a URL registered at POST /webhook-endpoints gets the
// webhook's example at once, and again on POST /webhook-endpoints/{id}/test; a receiver on 127.0.0.1 verifies each
// with the standardwebhooks library and the secret the registration returned, and the body is the one openapi.yaml
// declares (the fixture's generated parseWebhook checks it). Bad registrations are problems naming the field.
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { parseWebhook } from "../../../twinspec/test/fixture/client/generated/index.js";
import { startMockServer, type MockServer } from "../../../twinspec/test/support/mock.js";
import { call } from "../../../twinspec/test/support/server.js";

describe("mock server: webhooks (POST /webhook-endpoints)", function () {
  this.timeout(30_000);
  let s: MockServer;
  const got: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const waiting = new Set<() => void>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(req.url === "/refusing" ? 503 : 204).end();
      for (const wake of waiting) wake();
    });
  });
  /** The deliveries to `path`, once there are `n` of them. */
  const deliveries = (path: string, n: number) =>
    new Promise<typeof got>((resolve) => {
      const check = () => {
        const to = got.filter((g) => g.path === path);
        if (to.length < n) return;
        waiting.delete(check);
        resolve(to);
      };
      waiting.add(check);
      check();
    });
  let base = "";
  before(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    s = await startMockServer();
  });
  after(async () => {
    await s?.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });
  const register = (body: unknown) =>
    call(`${s.url}/webhook-endpoints`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("a registered URL gets each event's example, signed with the secret returned, as declared", async () => {
    const res = await register({ url: `${base}/hooks`, events: ["noteChanged"] });
    assert.equal(res.status, 201, res.text);
    const { endpointId, secret, url, events } = res.json;
    assert.match(endpointId, /^whe_/);
    assert.equal(res.headers.get("location"), `/webhook-endpoints/${endpointId}`);
    assert.deepEqual({ url, events }, { url: `${base}/hooks`, events: ["noteChanged"] });
    const [first] = await deliveries("/hooks", 1);
    const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    assert.equal(verified.type, "noteChanged");
    assert.equal(first.headers["content-type"], "application/json");
    // The body is the declared one: the fixture's generated parser checks it against openapi.yaml's schema.
    const event = parseWebhook.noteChanged(secret, first.headers, first.body, new Set());
    assert.deepEqual(Object.keys(event.data).sort(), ["authorId", "noteId", "ownerId", "sentAt", "title"]);
    assert.throws(() =>
      new Webhook(`whsec_${Buffer.from("x".repeat(24)).toString("base64")}`).verify(
        first.body,
        first.headers as Record<string, string>,
      ),
    );

    // Asked again: another delivery, with a new id, and what the receiver answered.
    const again = await call(`${s.url}/webhook-endpoints/${endpointId}/test`, { method: "POST" });
    assert.equal(again.status, 200, again.text);
    const [, second] = await deliveries("/hooks", 2);
    assert.deepEqual(again.json.deliveries, [
      { type: "noteChanged", webhookId: second.headers["webhook-id"], status: 204 },
    ]);
    assert.notEqual(second.headers["webhook-id"], first.headers["webhook-id"]);
    assert.doesNotThrow(() => new Webhook(secret).verify(second.body, second.headers as Record<string, string>));
  });

  it("says what a receiver answered, or that it could not be reached", async () => {
    const refusing = await register({ url: `${base}/refusing`, events: ["noteChanged"] });
    await deliveries("/refusing", 1);
    const res = await call(`${s.url}/webhook-endpoints/${refusing.json.endpointId}/test`, { method: "POST" });
    assert.equal(res.json.deliveries[0].status, 503);
    // A port nobody listens on any more.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const closed = await register({ url: `http://127.0.0.1:${port}/nobody`, events: ["noteChanged"] });
    const none = await call(`${s.url}/webhook-endpoints/${closed.json.endpointId}/test`, { method: "POST" });
    assert.equal(none.status, 200, none.text);
    assert.match(none.json.deliveries[0].error, /ECONNREFUSED/);
  });

  it("refuses a registration that names no URL or an undeclared event, naming the field", async () => {
    for (const [body, status, pointer, message] of [
      [{ url: "not a url", events: ["noteChanged"] }, 422, "/url", /does not parse/],
      [{ url: "ftp://example.com/x", events: ["noteChanged"] }, 422, "/url", /http: or https:/],
      [
        { url: `${base}/hooks`, events: ["noteDeleted"] },
        422,
        "/events",
        /noteDeleted, not among the declared webhooks: noteChanged/,
      ],
      [{ url: `${base}/hooks`, events: [] }, 422, "/events", /lists the event types/],
      ["[1]", 400, "", /JSON object/],
    ] as const) {
      const res = await register(typeof body === "string" ? JSON.parse(body) : body);
      assert.equal(res.status, status, res.text);
      assert.equal(res.headers.get("content-type"), "application/problem+json");
      assert.equal(res.json.errors[0].pointer, pointer);
      assert.match(res.json.detail, message);
    }
    const unknown = await call(`${s.url}/webhook-endpoints/whe_nobody/test`, { method: "POST" });
    assert.equal(unknown.status, 404, unknown.text);
    const get = await call(`${s.url}/webhook-endpoints`);
    assert.equal(get.status, 405, get.text);
    assert.equal(get.headers.get("allow"), "POST");
  });
});
