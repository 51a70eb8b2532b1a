// stubs.ts: `npm run generate` writes a stub for each operation, resolver and resource module that has none, into
// the right file, and never changes what is written there already.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSpecChecks } from "../../packages/twinspec/src/codegen/spec-checks.js";
import { loadDocument } from "../../packages/twinspec/src/codegen/spec.js";
import { syncStubs } from "../../packages/twinspec/src/codegen/stubs.js";
import { tagsWithFiles } from "../../packages/twinspec/src/codegen/contract-emitter.js";

describe("stubs in the hand-written files", () => {
  const { contract } = runSpecChecks();
  const doc = loadDocument("openapi.yaml");
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), "stubs-"))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const file = (path: string) => readFileSync(join(root, path), "utf8");

  it("writes each tag's REST, GraphQL and domain files whole when they are missing, then nothing more", () => {
    const first = syncStubs(contract, doc, { root });
    const tags = tagsWithFiles(contract);
    const expected = [...tags.domain.map((t) => `src/domain/${t}.ts`), ...tags.graphql.map((t) => `src/graphql/${t}.ts`), ...tags.rest.map((t) => `src/rest/${t}.ts`), "src/graphql/scalars.ts", "src/graphql/loaders.ts"];
    assert.deepEqual(first.filter((c) => c.created).map((c) => c.file).sort(), expected.sort());
    for (const file of ["src/domain/orders.ts", "src/graphql/orders.ts", "src/rest/carts.ts"]) assert.ok(expected.includes(file));
    assert.match(file("src/rest/orders.ts"), /export const handlers: HandlersByTag\["orders"\] = \{\n  async listCustomerOrders\(\) \{\n    throw new NotImplementedError\("listCustomerOrders"\);/);
    assert.match(file("src/graphql/orders.ts"), /Subscription: \{\n    orderStatusChanged: \{\n      subscribe: \(\) => \{/);
    assert.match(file("src/domain/orders.ts"), /export interface Order \{\n  orderId: string;[\s\S]*async ownerOf\(orderId: string\)/);
    assert.match(file("src/domain/orders.ts"), /  version: number;\n\}/, "an ETag-answering resource's model gets the version its ETag is made from");
    assert.doesNotMatch(file("src/domain/customers.ts"), /ownerOf/, "a customer owns itself");
    assert.match(file("src/graphql/scalars.ts"), /import \{ DateTime \} from "twinspec";[\s\S]*export const scalars: ScalarResolvers = \{\n  DateTime,\n\};/);
    assert.match(file("src/graphql/loaders.ts"), /export function createLoaders\(services: Services\)/);
    assert.deepEqual(syncStubs(contract, doc, { root }), [], "a second run changes nothing");
  });

  it("adds only the missing members to an existing file, keeping every byte already there", () => {
    syncStubs(contract, doc, { root });
    const rest = file("src/rest/carts.ts").replace(/  async deleteCart\(\) \{\n[^}]*\},\n/, "").replace("async getCart() {", "async getCart() {\n    // mine");
    writeFileSync(join(root, "src/rest/carts.ts"), rest);
    const graphql = file("src/graphql/orders.ts").replace(/  Subscription: \{[\s\S]*?\n  \},\n/, "").replace(/    order: \(\) => \{[^}]*\},\n/, "");
    writeFileSync(join(root, "src/graphql/orders.ts"), graphql);
    const changes = syncStubs(contract, doc, { root });
    assert.deepEqual(changes.map((c) => `${c.file}: ${c.added.join(", ")}`), ["src/rest/carts.ts: deleteCart", "src/graphql/orders.ts: Query.order, Subscription.orderStatusChanged"]);
    assert.ok(file("src/rest/carts.ts").startsWith(rest.slice(0, rest.lastIndexOf("};"))), "what was there is kept as it was");
    assert.match(file("src/rest/carts.ts"), /\/\/ mine/);
    assert.match(file("src/rest/carts.ts"), /async deleteCart\(\) \{\n    throw new NotImplementedError\("deleteCart"\);\n  \},\n\};\n$/);
    assert.match(file("src/graphql/orders.ts"), /Subscription: \{\n    orderStatusChanged/);
  });

  it("a REST file whose handlers are all written (no NotImplementedError import left) gets the import with a new stub", () => {
    syncStubs(contract, doc, { root });
    const written = file("src/rest/carts.ts")
      .replace(/  async deleteCart\(\) \{\n[^}]*\},\n/, "")
      .replace(/^import \{ NotImplementedError \}[^\n]*\n/m, "")
      .replace(/throw new NotImplementedError\("(\w+)"\);/g, "return undefined as never;");
    assert.doesNotMatch(written, /NotImplementedError/);
    writeFileSync(join(root, "src/rest/carts.ts"), written);
    syncStubs(contract, doc, { root });
    assert.match(file("src/rest/carts.ts"), /^import \{ NotImplementedError \}/m);
    assert.match(file("src/rest/carts.ts"), /throw new NotImplementedError\("deleteCart"\)/);
  });

  it("with check, only reports", () => {
    const changes = syncStubs(contract, doc, { root, check: true });
    const tags = tagsWithFiles(contract);
    assert.equal(changes.length, tags.domain.length + tags.graphql.length + tags.rest.length + 2, "and scalars.ts, loaders.ts");
    assert.throws(() => readFileSync(join(root, "src/rest/carts.ts")));
  });

  it("says what to do with a file whose handlers object it cannot find", () => {
    syncStubs(contract, doc, { root });
    writeFileSync(join(root, "src/rest/jobs.ts"), "export const somethingElse = 1;\n");
    assert.throws(() => syncStubs(contract, doc, { root }), /src\/rest\/jobs\.ts has no `export const handlers = \{ … \}`/);
  });

  it("the project's own files have every stub (generate -- --check fails otherwise)", () => {
    assert.deepEqual(syncStubs(contract, doc, { check: true }), []);
  });
});
