// verifyWebhook: what the service signs (with the standardwebhooks library, as its delivery does) verifies; a bad
// signature, a stale timestamp and a replayed id are refused; during a rotation either secret verifies.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { verifyWebhook, WebhookRefused } from "../../src/index.js";

const secret = `whsec_${Buffer.from("0123456789abcdef01234567").toString("base64")}`;
const other = `whsec_${Buffer.from("fedcba9876543210fedcba98").toString("base64")}`;

function delivery(id: string, at = new Date(), signWith = [secret]) {
  const body = JSON.stringify({ type: "bookReturned", timestamp: at.toISOString(), data: { bookId: "b1" } });
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signWith.map((s) => new Webhook(s).sign(id, at, body)).join(" "),
  };
  return { body, headers };
}

describe("verifyWebhook", () => {
  const fresh = () => new Set<string>();

  it("returns the signed envelope, with its id", () => {
    const { body, headers } = delivery("7");
    assert.deepEqual(verifyWebhook(secret, headers, body, fresh()), {
      id: "7",
      type: "bookReturned",
      timestamp: JSON.parse(body).timestamp,
      data: { bookId: "b1" },
    });
    // A Headers and bytes do as well.
    assert.equal(verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(body), fresh()).id, "7");
  });

  it("refuses a bad signature, a changed body and a stale timestamp", () => {
    const { body, headers } = delivery("8");
    const refused = (f: () => unknown, reason: string) =>
      assert.throws(f, (e: unknown) => e instanceof WebhookRefused && e.reason === reason);
    refused(() => verifyWebhook(other, headers, body, fresh()), "signature");
    refused(() => verifyWebhook(secret, headers, body.replace("b1", "b2"), fresh()), "signature");
    refused(() => verifyWebhook(secret, { ...headers, "webhook-signature": "" }, body, fresh()), "signature");
    const old = delivery("9", new Date(Date.now() - 3600_000));
    refused(() => verifyWebhook(secret, old.headers, old.body, fresh()), "signature");
  });

  it("refuses a replayed id", () => {
    const seen = fresh();
    const { body, headers } = delivery("10");
    verifyWebhook(secret, headers, body, seen);
    assert.throws(
      () => verifyWebhook(secret, headers, body, seen),
      (e: unknown) => e instanceof WebhookRefused && e.reason === "replay",
    );
  });

  it("during a rotation, a delivery signed with both verifies with either secret", () => {
    const { body, headers } = delivery("11", new Date(), [other, secret]);
    assert.equal(verifyWebhook(secret, headers, body, fresh()).id, "11");
    assert.equal(verifyWebhook(other, headers, body, fresh()).id, "11");
    assert.equal(verifyWebhook([other, secret], headers, body, fresh()).id, "11");
  });
});
