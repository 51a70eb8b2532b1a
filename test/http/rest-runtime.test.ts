// rest-runtime: handler lookup by operationId, whatever the spec names its operations.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Koa from "koa";
import { restMiddleware, type OperationSpec } from "../../src/http/rest-runtime.js";

const spec = (operationId: string, path: string): OperationSpec => ({
  operationId,
  method: "GET",
  path,
  routePath: path,
  parameters: [],
  validate: { path: undefined, query: undefined, header: undefined, cookie: undefined },
  responses: { "200": { contentTypes: ["application/json"], headers: [] } },
  security: [],
});

describe("restMiddleware: handlers by operationId", () => {
  it("finds only the handlers given: an operationId such as constructor or toString without one answers 501", async () => {
    const app = new Koa();
    app.use(restMiddleware([spec("constructor", "/a"), spec("toString", "/b"), spec("hasOwnProperty", "/c")], { hasOwnProperty: async () => ({ status: 200, body: { ok: true } }) }));
    const server = createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const statuses = await Promise.all(["/a", "/b", "/c"].map(async (p) => (await fetch(base + p)).status));
      assert.deepEqual(statuses, [501, 501, 200]);
    } finally {
      server.close();
    }
  });
});
