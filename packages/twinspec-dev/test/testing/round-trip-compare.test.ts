// What the round trips count as read back as written: equal key by key and item by item, keys the server adds
// ignored, null read back as null or absent, a date-time as the same instant.
import assert from "node:assert/strict";
import type { JsonObject } from "../../src/codegen/load/spec.js";
import { differences } from "../../src/testing/round-trip-compare.js";

const resolve = (node: unknown) => node as JsonObject;
const schema = {
  type: "object",
  properties: {
    at: { type: "string", format: "date-time" },
    name: { type: "string" },
    items: { type: "array", items: { type: "object", properties: { price: { type: "number" } } } },
  },
};

describe("round trips: what reads back as written", () => {
  it("keys the server adds are no difference; a key it drops is, at its pointer", () => {
    assert.deepEqual(differences(resolve, schema, { name: "a" }, { name: "a", id: "x_1" }), []);
    assert.deepEqual(differences(resolve, schema, { name: "a" }, { id: "x_1" }), [
      { pointer: "/name", sent: "a", read: undefined },
    ]);
  });

  it("arrays are compared item by item, nested objects key by key", () => {
    const sent = { items: [{ price: 1.5 }, { price: 2 }] };
    assert.deepEqual(differences(resolve, schema, sent, { items: [{ price: 1.5, sku: "s" }, { price: 2 }] }), []);
    assert.deepEqual(differences(resolve, schema, sent, { items: [{ price: 1.5 }, { price: 2.01 }] }), [
      { pointer: "/items/1/price", sent: 2, read: 2.01 },
    ]);
    assert.deepEqual(differences(resolve, schema, sent, { items: [{ price: 1.5 }] }), [
      { pointer: "/items", sent: sent.items, read: [{ price: 1.5 }] },
    ]);
  });

  it("null sent reads back as null or absent, nothing else", () => {
    assert.deepEqual(differences(resolve, schema, { name: null }, {}), []);
    assert.deepEqual(differences(resolve, schema, { name: null }, { name: null }), []);
    assert.deepEqual(differences(resolve, schema, { name: null }, { name: "" }), [
      { pointer: "/name", sent: null, read: "" },
    ]);
  });

  it("a date-time reads back as the same instant however written; a plain string must be the same", () => {
    assert.deepEqual(
      differences(resolve, schema, { at: "2026-01-01T10:00:00+01:00" }, { at: "2026-01-01T09:00:00.000Z" }),
      [],
    );
    assert.equal(
      differences(resolve, schema, { at: "2026-01-01T10:00:00Z" }, { at: "2026-01-01T10:00:01.000Z" }).length,
      1,
    );
    assert.equal(
      differences(resolve, schema, { name: "2026-01-01T10:00:00Z" }, { name: "2026-01-01T10:00:00.000Z" }).length,
      1,
    );
  });
});
