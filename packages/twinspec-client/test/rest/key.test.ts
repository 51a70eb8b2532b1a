// Idempotency keys: random version-4 UUIDs, also where the platform lacks crypto.randomUUID (insecure contexts).
import assert from "node:assert/strict";
import { newKey } from "../../src/rest/client.js";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("newKey", () => {
  it("is a version-4 UUID, a new one each time", () => {
    const keys = new Set(Array.from({ length: 100 }, newKey));
    assert.equal(keys.size, 100);
    for (const key of keys) assert.match(key, UUID4);
  });

  it("makes one from random bytes where crypto.randomUUID is missing", () => {
    const original = crypto.randomUUID.bind(crypto);
    try {
      (crypto as { randomUUID?: unknown }).randomUUID = undefined;
      const keys = new Set(Array.from({ length: 100 }, newKey));
      assert.equal(keys.size, 100);
      for (const key of keys) assert.match(key, UUID4);
    } finally {
      crypto.randomUUID = original;
    }
  });
});
