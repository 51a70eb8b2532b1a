// generated/models.ts: the spec's component schemas by name, so the domain imports its enums and models instead of restating them.
import assert from "node:assert/strict";
import { emitModels } from "../../../src/codegen/emit/models.js";

describe("emitModels (generated/models.ts)", () => {
  it("names every component schema after openapi.ts's type, with its description", () => {
    const out = emitModels({
      components: {
        schemas: {
          ShipmentStatus: { type: "string", enum: ["PACKED", "SENT"], description: "Where the parcel is" },
          Shipment: { type: "object" },
          "not-an-identifier": { type: "string" },
          paths: { type: "string" },
        },
      },
    });
    assert.ok(out);
    assert.match(out, /import type \{ components \} from "\.\/openapi\.js";/);
    assert.match(
      out,
      /\/\*\* Where the parcel is \*\/\nexport type ShipmentStatus = components\["schemas"\]\["ShipmentStatus"\];/,
    );
    assert.match(out, /export type Shipment = components\["schemas"\]\["Shipment"\];/);
    // a name openapi.ts exports itself, or one TypeScript cannot spell, keeps its components["schemas"] spelling only
    assert.doesNotMatch(out, /not-an-identifier|type paths/);
  });

  it("writes no file for a document without component schemas", () => {
    assert.equal(emitModels({ openapi: "3.1.0" }), undefined);
  });
});
