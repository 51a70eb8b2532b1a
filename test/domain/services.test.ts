// Services reach each other through createService(deps): deps.services is the application's Services, typed
// (generated/wiring.ts Deps), and is the very object createServices returns.
import assert from "node:assert/strict";
import type { Deps } from "../../generated/wiring.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import { freshDatabase, type TestDatabase } from "twinspec-dev/testing";
import { domainOn } from "../support/services.js";

describe("services reach each other through deps.services", () => {
  let database: TestDatabase;
  let store: Store;
  before(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it("hands every createService the services createServices returns, each one typed", () => {
    const { services } = domainOn(store);
    const deps = (services.notes as unknown as { deps: Deps }).deps;
    assert.equal(deps.services, services);
    assert.equal(deps.services.orders, services.orders);
    assert.equal(typeof deps.services.orders.get, "function");
  });
});
