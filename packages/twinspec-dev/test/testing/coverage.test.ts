// The coverage gate counts what a step asked for and got: not a fuzzer's or a walk's luck, not an answer to a step
// that asked for another status, and not the framework's Idempotency-Key in-flight 409 standing in for an
// operation's own 409; each pair left names what produced it. Against the fixture, on a real server.
import assert from "node:assert/strict";
import { fingerprint } from "twinspec/internals";
import { definition } from "../../../twinspec/test/fixture/generated/wiring.js";
import { asking, coverageOf } from "../../src/testing/coverage.js";
import { startServer, type TestServer } from "../../src/testing/server.js";
import { ADMIN_SUBJECT, ADMIN_TOKEN } from "../../src/testing/tokens.js";

const line = (op: string, status: number) =>
  coverageOf(definition).missing.find((m) => m.startsWith(`${op} ${status}:`));

describe("the coverage gate counts what was asked for", function () {
  this.timeout(30_000);
  let s: TestServer;
  before(async () => (s = await startServer(definition)));
  after(() => s.close());

  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${s.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  it("a status met by luck does not count, and the gate names who met it", async () => {
    const res = await post("/authors", {}, asking("REST fuzzer, seed 42", "any"));
    assert.equal(res.status, 400);
    assert.match(
      line("createAuthor", 400) ?? "",
      /^createAuthor 400: produced only by luck \(REST fuzzer, seed 42\); no step asked for it/,
    );
  });

  it("an answer to a step that asked for another status does not count", async () => {
    const res = await post("/authors", { name: 7 }, asking("scenario: a name that is no string", [201]));
    assert.equal(res.status, 400);
    assert.match(
      line("createAuthor", 400) ?? "",
      /only by a step that asked for another status \(scenario: a name that is no string\)/,
    );
  });

  it("the status a step asked for and got counts; so does a test of the application's own (no header)", async () => {
    assert.equal((await post("/authors", {}, asking("a step", [400]))).status, 400);
    assert.equal(line("createAuthor", 400), undefined);
    assert.equal((await post("/authors", { name: "Ada" }, {})).status, 201);
    assert.equal(line("createAuthor", 201), undefined);
  });

  it("the framework's in-flight 409 counts for a 409 declared as the Idempotency-Key one, never for the application's own", async () => {
    const key = `in-flight-${Date.now()}`;
    const body = { name: "Grace" };
    assert.ok(
      await s.store.idempotencyKeys.claim(
        ADMIN_SUBJECT,
        key,
        fingerprint("createAuthor", { params: {}, query: {}, body }),
        new Date().toISOString(),
      ),
    );
    assert.equal(
      (await post("/authors", body, { "idempotency-key": key, ...asking("status walk", [409]) })).status,
      409,
    );
    // The fixture declares createAuthor's 409 as IdempotencyInFlight.
    assert.equal(line("createAuthor", 409), undefined);
    // The same operation, were its 409 the application's own (its path no longer finds the declaration).
    const own = definition.operationSpecs.map((op) =>
      op.operationId === "createAuthor" ? { ...op, path: "/elsewhere" } : op,
    );
    const left = coverageOf({ operationSpecs: own }).missing.find((m) => m.startsWith("createAuthor 409:"));
    assert.match(
      left ?? "",
      /^createAuthor 409: produced only the framework's Idempotency-Key in-flight 409, not the application's own \(status walk\)/,
    );
  });
});
