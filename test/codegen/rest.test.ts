// generateRest with the repository's bench helpers (a synthetic large document, the corpus type-checker); the rest
// of its tests are the twinspec package's (packages/twinspec-dev/test/codegen/rest.test.ts).
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { syntheticSpec } from "../../bench/synthetic.js";
import { createChecker } from "../../bench/typecheck.js";
import { compileInWorker, generateRest } from "../../packages/twinspec-dev/src/codegen/generate-rest.js";
import { collectOperations } from "../../packages/twinspec-dev/src/codegen/model/operations.js";
import type { JsonObject } from "../../packages/twinspec-dev/src/codegen/load/spec.js";
import { compileValidators } from "../../packages/twinspec-dev/src/codegen/emit/validators.js";

describe("compileInWorker (large documents)", function () {
  this.timeout(30_000);
  it("gives exactly what compileValidators gives on the main thread", async () => {
    const doc = syntheticSpec(120) as JsonObject;
    const operations = collectOperations(doc, "synthetic.json");
    const inWorker = await compileInWorker(doc, operations);
    const direct = compileValidators(doc, operations);
    assert.equal(inWorker.source, direct.source);
    assert.deepEqual(inWorker.names, direct.names);
    assert.deepEqual(inWorker.byOperation, direct.byOperation);
  });
});

describe("generateRest: openapi-typescript's WithRequired", () => {
  it("passes over required keys a member's type does not have, so the output compiles (plaid.com)", async () => {
    const files = await generateRest(
      "packages/twinspec-dev/test/fixtures/lenient/required-union.yaml",
      "out",
      "twinspec/runtime",
    );
    const types = files.find((f) => f.path === "out/openapi.ts")!.content;
    assert.match(types, /WithRequired<components\["schemas"\]\["Error"\], "code">/);
    assert.match(
      types,
      /type WithRequired<T, K extends PropertyKey> = T & \{\n {4}\[P in K & keyof T\]-\?: T\[P\];\n\};/,
    );
    const check = createChecker()(new Map([["doc", new Map(files.map((f) => [resolve(f.path), f.content]))]]));
    assert.deepEqual(check.get("doc")!.errors, []);
  });
});
