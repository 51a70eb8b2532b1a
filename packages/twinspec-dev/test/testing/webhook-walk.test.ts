// The webhook walk on the fixture: its noteChanged, emitted by patchNote (x-emitted-by) and by the mutation paired
// with it, is delivered signed, as declared, with the event log's id. A payload field dropped by the domain fails
// naming the field; an operation that emits nothing fails naming the webhook, the step and the request.
import assert from "node:assert/strict";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

const run = (env: Record<string, string> = {}) =>
  childMocha({ file: "test/testing/webhook-run.ts", root: FIXTURE, env, testTimeout: 60_000 });

describe("the webhook walk", function () {
  this.timeout(240_000);

  it("walks the fixture's noteChanged over REST and GraphQL, and passes", () => {
    const { status, output } = run();
    assert.equal(status, 0, output);
    assert.match(output, /✔ noteChanged, emitted by patchNote \(PATCH \/notes\/\{noteId\}\)/, output);
    assert.match(output, /✔ noteChanged, emitted by Mutation\.updateNote \(paired with patchNote\)/, output);
    assert.match(output, /2 passing/, output);
  });

  it("a payload field the domain drops fails, naming the webhook, the step, the request and the field", () => {
    const { status, output } = run({ DROP_FIELD: "title" });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /webhook noteChanged, step "payload": PATCH \/notes\/not_[\w-]+ \{"title":"Groceries for Sunday"\} \(answered 200\): the delivery is not the body openapi\.yaml declares for noteChanged: \/data must have required property 'title'/,
      output,
    );
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });

  it("an operation that emits nothing fails at the delivery step", () => {
    const { status, output } = run({ SKIP_EVENTS: "1", DELIVERY_TIMEOUT_MS: "1500" });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /webhook noteChanged, step "delivery": PATCH \/notes\/not_[\w-]+ .*: nothing was delivered within 1500 ms \(no attempt was made\); the operation must emit noteChanged/,
      output,
    );
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });
});
