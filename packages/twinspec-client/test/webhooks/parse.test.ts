// createWebhookParser (what a client package's parseWebhook is): a delivery signed by the standardwebhooks library
// is verified, then its body checked against the schema of the webhook its type names; a bad signature, a stale
// timestamp, a replay, an undeclared type and a body the schema refuses are each refused with their reason, and a
// body refused is not remembered as seen.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { createWebhookParser, WebhookRefused } from "../../src/index.js";

const secret = `whsec_${Buffer.from("0123456789abcdef01234567").toString("base64")}`;
const other = `whsec_${Buffer.from("fedcba9876543210fedcba98").toString("base64")}`;

interface Bodies {
  bookReturned: { type: "bookReturned"; timestamp: string; data: { bookId: string; late: boolean } };
  bookLost: { type: "bookLost"; timestamp: string; data: { bookId: string } };
}
const envelope = (type: string, data: object) => ({
  type: "object",
  additionalProperties: false,
  required: ["type", "timestamp", "data"],
  properties: { type: { const: type }, timestamp: { $ref: "#/$defs/Timestamp" }, data },
  $defs: { Timestamp: { type: "string", format: "date-time" }, Id: { type: "string", pattern: "^b[0-9]+$" } },
});
const parseWebhook = createWebhookParser<Bodies>({
  bookReturned: envelope("bookReturned", {
    type: "object",
    required: ["bookId", "late"],
    properties: { bookId: { $ref: "#/$defs/Id" }, late: { type: "boolean" } },
  }),
  bookLost: envelope("bookLost", {
    type: "object",
    required: ["bookId"],
    properties: { bookId: { $ref: "#/$defs/Id" } },
  }),
});

function delivery(id: string, body: unknown, at = new Date(), signWith = secret) {
  const raw = JSON.stringify(body);
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(signWith).sign(id, at, raw),
  };
  return { raw, headers };
}
const returned = (data: unknown = { bookId: "b1", late: false }) => ({
  type: "bookReturned",
  timestamp: new Date().toISOString(),
  data,
});
const refused = (f: () => unknown, reason: string, message?: RegExp) =>
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof WebhookRefused, String(e));
    assert.equal(e.reason, reason, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });

describe("createWebhookParser (a client package's parseWebhook)", () => {
  const fresh = () => new Set<string>();

  it("returns a declared webhook's delivery, with its id; parseWebhook.<type> only that webhook's", () => {
    const body = returned();
    const { raw, headers } = delivery("1", body);
    const event = parseWebhook(secret, headers, raw, fresh());
    assert.deepEqual(event, { id: "1", ...body });
    assert.equal(event.type === "bookReturned" && event.data.late, false);
    assert.equal(
      parseWebhook.bookReturned(secret, new Headers(headers), new TextEncoder().encode(raw), fresh()).id,
      "1",
    );
    refused(
      () => parseWebhook.bookLost(secret, headers, raw, fresh()),
      "payload",
      /type "bookReturned" is not bookLost/,
    );
  });

  it("refuses a bad signature, a stale timestamp and a replayed id", () => {
    const { raw, headers } = delivery("2", returned());
    refused(() => parseWebhook(other, headers, raw, fresh()), "signature");
    const stale = delivery("3", returned(), new Date(Date.now() - 10 * 60_000));
    refused(() => parseWebhook(secret, stale.headers, stale.raw, fresh()), "signature", /timestamp/i);
    const seen = fresh();
    parseWebhook(secret, headers, raw, seen);
    refused(() => parseWebhook(secret, headers, raw, seen), "replay");
  });

  it("refuses a body its declared schema refuses, naming where, and an undeclared type", () => {
    const seen = fresh();
    const missing = delivery("4", returned({ bookId: "b1" }));
    refused(
      () => parseWebhook(secret, missing.headers, missing.raw, seen),
      "payload",
      /\/data: .*required property "late"/,
    );
    const wrong = delivery("5", returned({ bookId: "x1", late: "no" }));
    refused(
      () => parseWebhook(secret, wrong.headers, wrong.raw, seen),
      "payload",
      /\/data\/bookId: .*pattern.*; \/data\/late: .*boolean/,
    );
    const extra = delivery("6", { ...returned(), more: 1 });
    refused(() => parseWebhook(secret, extra.headers, extra.raw, seen), "payload", /"more"/);
    const unknown = delivery("7", { ...returned(), type: "bookBurnt" });
    refused(
      () => parseWebhook(secret, unknown.headers, unknown.raw, seen),
      "payload",
      /type "bookBurnt" is not a declared webhook \(bookReturned, bookLost\)/,
    );
    // Refused for its body, a delivery is not remembered: fixed and sent again, it is taken.
    assert.equal(seen.size, 0);
  });
});
