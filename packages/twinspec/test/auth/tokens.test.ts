// Which tokens are refused, and how: 401 + WWW-Authenticate with error="invalid_token" when one was sent.
import assert from "node:assert/strict";
import { decodeJwt, SignJWT, UnsecuredJWT } from "jose";
import { TokenVerifier } from "../../src/auth/tokens.js";
import { TEST_SECRET, token } from "../support/auth.js";
import { call, startServer, type TestServer } from "../support/server.js";

const key = (s: string) => new TextEncoder().encode(s);
const now = () => Math.floor(Date.now() / 1000);

describe("bearer tokens", () => {
  let s: TestServer;
  before(async () => (s = await startServer()));
  after(() => s.close());

  const cases: [string, () => Promise<string>, RegExp][] = [
    [
      "alg none",
      async () =>
        new UnsecuredJWT({ scope: "admin" })
          .setSubject("x")
          .setExpirationTime(now() + 60)
          .encode(),
      /HS256|malformed/,
    ],
    [
      "another algorithm (HS512)",
      async () =>
        new SignJWT({ scope: "admin" })
          .setProtectedHeader({ alg: "HS512" })
          .setSubject("x")
          .setExpirationTime(now() + 60)
          .sign(key(TEST_SECRET)),
      /HS256/,
    ],
    [
      "a bad signature",
      async () =>
        new SignJWT({ scope: "admin" })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("x")
          .setExpirationTime(now() + 60)
          .sign(key("another-secret-another-secret-0123")),
      /signature/,
    ],
    [
      "a tampered payload",
      async () => {
        const [h, , sig] = (await token("x", "authors:read")).split(".");
        return `${h}.${Buffer.from(JSON.stringify({ sub: "x", scope: "admin", exp: now() + 60 })).toString("base64url")}.${sig}`;
      },
      /signature/,
    ],
    [
      "an expired token",
      async () =>
        new SignJWT({ scope: "admin" })
          .setProtectedHeader({ alg: "HS256" })
          .setSubject("x")
          .setExpirationTime(now() - 10)
          .sign(key(TEST_SECRET)),
      /expired/,
    ],
    ["a token before nbf", () => token("x", "admin", 3600, 600), /claims/],
    [
      "a token without exp",
      async () =>
        new SignJWT({ scope: "admin" }).setProtectedHeader({ alg: "HS256" }).setSubject("x").sign(key(TEST_SECRET)),
      /claims/,
    ],
    ["garbage", async () => "not.a.jwt", /malformed/],
  ];

  for (const [name, make, detail] of cases) {
    it(`refuses ${name}: 401 with error="invalid_token"`, async () => {
      const res = await call(`${s.url}/authors`, { headers: { authorization: `Bearer ${await make()}` } });
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate")!, /^Bearer realm="twinspec", error="invalid_token"/);
      assert.match(res.json.detail, detail);
    });
  }

  it("a header that is not Bearer → 401 invalid_token", async () => {
    const res = await call(`${s.url}/authors`, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    assert.equal(res.status, 401);
    assert.match(res.headers.get("www-authenticate")!, /invalid_token/);
  });

  it("caches verified tokens (bounded), but never past their expiry", async () => {
    const bounded = new TokenVerifier({ secret: TEST_SECRET, maxCached: 2 });
    for (const sub of ["a", "b", "c"]) await bounded.verify(await token(sub, ""));
    assert.equal((bounded as unknown as { cache: Map<string, unknown> }).cache.size, 2);
    const verifier = new TokenVerifier({ secret: TEST_SECRET });
    // Signed just after a second begins, with two seconds to live (exp is whole seconds, so a one-second token signed
    // late in a second could expire before a loaded machine verifies it once).
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
    const short = await token("x", "admin", 2);
    assert.equal((await verifier.verify(short)).subject, "x");
    // Until its expiry (whole seconds), not a fixed second and more.
    const { exp } = decodeJwt(short);
    await new Promise((r) => setTimeout(r, Math.max(0, exp! * 1000 - Date.now()) + 20));
    await assert.rejects(verifier.verify(short), /expired/);
  });
});
