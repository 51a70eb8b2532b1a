// Rate limits on REST, against a real server: a flooding caller gets 429 problem+json with Retry-After and the
// RateLimit-* fields (on its successful answers too), while another caller's budget is untouched; anonymous callers
// are counted by address; each budget is spent by the operations the spec gives it; the factor scales them all.
import assert from "node:assert/strict";
import { token } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";
import { clearOfWindowEnd, fields, fromAddress, hourly } from "./helpers.js";

describe("rate limits on REST", () => {
  let s: TestServer;
  before(async function () {
    this.timeout(60_000); // clearOfWindowEnd may wait up to 30 s
    s = await startServer({ rateLimits: { overrides: hourly({ default: 5, "tag:notes": 3, "op:deleteNote": 2 }) } });
    await clearOfWindowEnd();
  });
  after(() => s.close());

  const as = async (sub: string) => ({ authorization: `Bearer ${await token(sub, "admin")}` });

  it("a caller over budget gets 429 problem+json with Retry-After; every answer says where it stands; another caller is untouched", async () => {
    const flooder = await as("flooder");
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await call(`${s.url}/authors`, { headers: flooder }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 429, 429, 429],
    );
    assert.deepEqual(
      answers.map((a) => fields(a.headers).remaining),
      [4, 3, 2, 1, 0, 0, 0, 0],
    );
    for (const a of answers) {
      const f = fields(a.headers);
      assert.deepEqual([f.policy, f.limit, f.window], ["default", 5, 3600]);
      assert.ok(f.reset > 0 && f.reset <= 3600, String(f.reset));
    }
    const refused = answers[5];
    assert.equal(refused.headers.get("content-type"), "application/problem+json");
    assert.equal(refused.json.type, "urn:twinspec:problem:rate-limited");
    assert.match(refused.json.detail, /5 requests per 3600 s.*retry in \d+ s/);
    assert.equal(refused.json.requestId, refused.headers.get("x-request-id"));
    assert.equal(fields(refused.headers).retryAfter, fields(refused.headers).reset);

    const quiet = await call(`${s.url}/authors`, { headers: await as("quiet") });
    assert.deepEqual([quiet.status, fields(quiet.headers).remaining], [200, 4]);
  });

  it("a refusal comes before the input is read: a flood of bad requests is limited too", async () => {
    const headers = { ...(await as("bad-input")), "content-type": "application/json" };
    const statuses = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await call(`${s.url}/authors`, { method: "POST", headers, body: "{not json" })).status);
    assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429, 429]);
  });

  it("each budget is spent by its operations: the default by every operation without its own, a tag's and an operation's apart", async () => {
    const caller = await as("spender");
    const author = (await call(`${s.url}/authors`, { method: "POST", json: { name: "Ada Lovelace" }, headers: caller }))
      .json;
    // The default budget is one, whichever operation spends it.
    const read = await call(`${s.url}/authors/${author.authorId}`, { headers: caller });
    assert.equal(fields(read.headers).remaining, 3);
    const page = await call(`${s.url}/authors?limit=1`, { headers: caller });
    assert.equal(fields(page.headers).remaining, 2);
    // writeNote and getNote spend their tag's budget (3), deleteNote one of its own (2): neither spends the default.
    const note = await call(`${s.url}/authors/${author.authorId}/notes`, {
      method: "POST",
      json: { title: "T", body: "B" },
      headers: caller,
    });
    assert.deepEqual(
      [note.status, fields(note.headers).policy, fields(note.headers).limit, fields(note.headers).remaining],
      [201, "tag:notes", 3, 2],
    );
    const deleted = await call(`${s.url}${note.headers.get("location")}`, { method: "DELETE", headers: caller });
    assert.deepEqual(
      [
        deleted.status,
        fields(deleted.headers).policy,
        fields(deleted.headers).limit,
        fields(deleted.headers).remaining,
      ],
      [204, "op:deleteNote", 2, 1],
    );
    const gone = await call(`${s.url}${note.headers.get("location")}`, { headers: caller });
    assert.deepEqual(
      [gone.status, fields(gone.headers).policy, fields(gone.headers).limit, fields(gone.headers).remaining],
      [410, "tag:notes", 3, 1],
    );
    assert.equal(fields((await call(`${s.url}/authors`, { headers: caller })).headers).remaining, 1);
  });

  it("anonymous callers are counted by address: one address's flood does not touch another's", async () => {
    const from2 = [];
    for (let i = 0; i < 7; i++) from2.push(await fromAddress(`${s.url}/authors`, "127.0.0.2"));
    assert.deepEqual(
      from2.map((r) => r.status),
      [401, 401, 401, 401, 401, 429, 429],
    );
    assert.equal(fields(from2[0].headers).remaining, 4);
    assert.equal(fields(from2[6].headers).retryAfter, fields(from2[6].headers).reset);
    // A token that does not verify proves nobody: still that address's budget.
    assert.equal(
      (await fromAddress(`${s.url}/authors`, "127.0.0.2", { headers: { authorization: "Bearer not.a.token" } })).status,
      429,
    );
    // Another address, and a valid token from the flooding one, have budgets of their own.
    const from3 = await fromAddress(`${s.url}/authors`, "127.0.0.3");
    assert.deepEqual([from3.status, fields(from3.headers).remaining], [401, 4]);
    const signed = await fromAddress(`${s.url}/authors`, "127.0.0.2", { headers: await as("someone-at-127.0.0.2") });
    assert.deepEqual([signed.status, fields(signed.headers).remaining], [200, 4]);
  });

  it("RATE_LIMIT_FACTOR multiplies every budget", async () => {
    const scaled = await startServer({ rateLimits: { factor: 2, overrides: hourly({ default: 5 }) } });
    try {
      const caller = await as("factor");
      const statuses = [];
      for (let i = 0; i < 12; i++) statuses.push((await call(`${scaled.url}/authors`, { headers: caller })).status);
      assert.deepEqual(statuses, [...Array(10).fill(200), 429, 429]);
    } finally {
      await scaled.close();
    }
  });
});
