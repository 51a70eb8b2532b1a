// Which endpoints receive an event (src/webhooks/delivery.ts `receives`): an admin's every event; an owner's, that
// owner's events and those of nobody's (an event type owned by "none"); none of another owner's or of an owner that
// cannot be told.
import assert from "node:assert/strict";
import type { Kysely } from "kysely";
import { createLogger } from "../../src/logger.js";
import type { Database } from "../../src/store/schema.js";
import { WebhookDelivery } from "../../src/webhooks/delivery.js";
import type { WebhookEndpoints } from "../../src/webhooks/endpoints.js";

describe("webhook delivery: whose endpoints receive an event", () => {
  // The event's owner as setup.ts reads it: a property of the payload, null for an event type nobody owns.
  const ownerOf = async (type: string, payload: unknown) =>
    type === "announcement" ? null : ((payload as { ownerId?: string }).ownerId ?? undefined);
  const delivery = new WebhookDelivery(
    {} as Kysely<Database>,
    {} as WebhookEndpoints,
    ["announcement", "bookLent"],
    ownerOf,
    createLogger("silent"),
  );
  const cases: [string, string | null, string, unknown, boolean][] = [
    ["an admin's endpoint, an owner's event", null, "bookLent", { ownerId: "mem_1" }, true],
    ["an admin's endpoint, nobody's event", null, "announcement", {}, true],
    ["the owner's endpoint, its event", "mem_1", "bookLent", { ownerId: "mem_1" }, true],
    ["another owner's endpoint", "mem_2", "bookLent", { ownerId: "mem_1" }, false],
    ["an owner's endpoint, nobody's event", "mem_2", "announcement", {}, true],
    ["an owner's endpoint, an event whose owner cannot be told", "mem_1", "bookLent", {}, false],
  ];
  for (const [name, owner, type, payload, receives] of cases)
    it(`${name}: ${receives ? "receives" : "does not"}`, async () =>
      assert.equal(await delivery.receives(owner, type, payload), receives));
});
