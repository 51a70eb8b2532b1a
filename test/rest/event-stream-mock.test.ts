// The mock server (npm run mock) serves the REST event stream from its mocked subscription: an example event at each
// tick of its clock, as SSE messages carrying the payload's schema; the same auth (no token → 401).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "twinspec";
import { buildMockApp } from "twinspec-dev/mock";
import { definition } from "../../generated/wiring.js";
import { ADMIN_TOKEN, TEST_SECRET } from "../support/auth.js";

describe("REST event stream on the mock server", () => {
  it("answers example events at every tick, and 401 without a token", async () => {
    const app = buildMockApp({
      definition,
      logger: createLogger("silent"),
      authSecret: TEST_SECRET,
      eventIntervalMs: 20,
    });
    const server = createServer(app.callback);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/customers/cus_1/order-events`;
    try {
      assert.equal((await fetch(url)).status, 401);
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, accept: "text/event-stream" },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^text\/event-stream/);
      const reader = res.body!.getReader();
      let text = "";
      while (!/^data: /m.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      const data = JSON.parse(/^data: (.*)$/m.exec(text)![1]) as Record<string, unknown>;
      assert.deepEqual(Object.keys(data).sort(), ["customerId", "orderId", "sentAt", "status"]);
    } finally {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
