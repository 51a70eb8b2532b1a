// Tokens from an identity provider: RS256, ES256 and EdDSA verified against its JWKS (served by the test on
// 127.0.0.1), issuer and audience checked, scopes from `scope` and `scp`, keys cached, fetched again on an unknown
// kid (a key rotation) at most once per cooldown, and HS256 with AUTH_SECRET working beside them.
import assert from "node:assert/strict";
import { SignJWT, UnsecuredJWT, exportSPKI, importJWK, type CryptoKey } from "jose";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { TokenVerifier } from "../../src/auth/tokens.js";
import { resolveSecret } from "../../src/auth/secret.js";
import { TEST_SECRET } from "../support/auth.js";
import { AUDIENCE, startIdp, type Idp } from "../support/idp.js";
import { startProcess } from "../support/process.js";
import { ada, call, gql, startServer, type TestServer } from "../support/server.js";

const COOLDOWN = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("identity provider tokens (JWKS)", () => {
  let idp: Idp;
  let s: TestServer;

  before(async () => {
    idp = await startIdp();
    await idp.addKey("rsa-1", "RS256");
    await idp.addKey("ec-1", "ES256");
    await idp.addKey("ed-1", "EdDSA");
    s = await startServer({
      identity: {
        jwksUrl: idp.jwksUrl,
        issuer: idp.issuer,
        audience: [AUDIENCE, "other-api"],
        jwks: { cooldownMs: COOLDOWN },
      },
    });
  });
  after(async () => {
    await s.close();
    await idp.close();
  });

  const refused = async (token: string, detail: RegExp) => {
    const res = await call(`${s.url}/authors`, { headers: bearer(token) });
    assert.equal(res.status, 401, res.text);
    assert.match(
      res.headers.get("www-authenticate")!,
      /^Bearer realm="twinspec", error="invalid_token", error_description="/,
    );
    assert.match(res.json.detail, detail);
  };

  for (const [kid, alg] of [
    ["rsa-1", "RS256"],
    ["ec-1", "ES256"],
    ["ed-1", "EdDSA (Ed25519)"],
  ]) {
    it(`accepts an ${alg} token signed by the provider (REST and GraphQL)`, async () => {
      const token = await idp.sign(kid);
      assert.equal((await call(`${s.url}/authors`, { headers: bearer(token) })).status, 200);
      const res = await gql(s.url, "{ authors(first: 1) { authorId } }", undefined, { token });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json.errors, undefined);
    });
  }

  it("fetches the keys once and serves later tokens from the cache", async () => {
    const before = idp.fetches;
    for (const kid of ["rsa-1", "ec-1", "ed-1"])
      assert.equal(
        (await call(`${s.url}/authors`, { headers: bearer(await idp.sign(kid, { sub: `cached-${kid}` })) })).status,
        200,
      );
    assert.equal(idp.fetches, before);
  });

  it("scopes come from scp (an array, or a string) and scope together", async () => {
    const author = await call(`${s.url}/authors`, {
      method: "POST",
      json: ada,
      headers: bearer(await idp.sign("rsa-1")),
    });
    const id = author.json.authorId;
    const asArray = await idp.sign("rsa-1", { sub: id, scope: undefined, scp: ["authors:read"] });
    assert.equal((await call(`${s.url}/authors/${id}`, { headers: bearer(asArray) })).status, 200);
    const forbidden = await call(`${s.url}/authors/${id}/notes`, { headers: bearer(asArray) });
    assert.equal(forbidden.status, 403, "notes:read is not among them");
    assert.match(forbidden.headers.get("www-authenticate")!, /insufficient_scope/);
    const both = await idp.sign("ec-1", { sub: id, scope: "notes:read", scp: ["authors:read"] });
    assert.equal((await call(`${s.url}/authors/${id}/notes`, { headers: bearer(both) })).status, 200);
    assert.equal((await call(`${s.url}/authors/${id}`, { headers: bearer(both) })).status, 200);
    const entra = await idp.sign("ed-1", { sub: id, scope: undefined, scp: "authors:read notes:read" });
    assert.equal((await call(`${s.url}/authors/${id}/notes`, { headers: bearer(entra) })).status, 200);
  });

  it("a token for another audience, without one, or from another issuer → 401 invalid_token", async () => {
    await refused(
      await idp.sign("rsa-1", { aud: "someone-else" }),
      /audience \(aud\) must be twinspec-api or other-api/,
    );
    await refused(await idp.sign("rsa-1", { aud: undefined }), /audience|aud/);
    assert.equal(
      (await call(`${s.url}/authors`, { headers: bearer(await idp.sign("rsa-1", { aud: ["x", "other-api"] })) }))
        .status,
      200,
      "one of several audiences",
    );
    await refused(await idp.sign("ec-1", { iss: "https://evil.example/" }), /issuer \(iss\) must be/);
    await refused(await idp.sign("ed-1", { exp: Math.floor(Date.now() / 1000) - 5 }), /expired/);
    await refused(await idp.sign("ed-1", { sub: undefined }), /claims/);
  });

  it("GraphQL refuses the whole request with 401, and graphql-ws closes the socket with 4403", async () => {
    const wrong = await idp.sign("rsa-1", { aud: "someone-else" });
    const res = await gql(s.url, "{ authors(first: 1) { authorId } }", undefined, { token: wrong });
    assert.equal(res.status, 401);
    assert.match(res.headers.get("www-authenticate")!, /invalid_token/);
    assert.equal(res.json.errors[0].extensions.code, "UNAUTHENTICATED");

    const connect = (token: string) =>
      new Promise<{ code?: number; data?: unknown }>((resolve) => {
        const client = createClient({
          url: `${s.url.replace("http", "ws")}/graphql`,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          connectionParams: bearer(token),
        });
        client.subscribe(
          { query: "{ authors(first: 1) { authorId } }" },
          {
            next: (data) => resolve({ data }),
            error: (e) => resolve({ code: (e as { code?: number }).code }),
            complete: () => void client.dispose(),
          },
        );
      });
    assert.equal((await connect(wrong)).code, 4403);
    const ok = await connect(await idp.sign("ec-1"));
    assert.ok((ok.data as { data?: unknown })?.data, JSON.stringify(ok));
  });

  it("refuses tokens that try to cross key kinds: alg none, HS256 made with the provider's public key, a foreign key under a known kid", async () => {
    await refused(
      new UnsecuredJWT({ scope: "admin", aud: AUDIENCE, iss: idp.issuer })
        .setSubject("x")
        .setExpirationTime("5m")
        .encode(),
      /HS256, RS256, ES256 or EdDSA|malformed/,
    );
    // Classic confusion: the RSA public key (public knowledge) used as an HMAC secret.
    const jwk = JSON.parse(await (await fetch(idp.jwksUrl)).text()).keys.find(
      (k: { kid: string }) => k.kid === "rsa-1",
    );
    const pem = await exportSPKI((await importJWK(jwk, "RS256")) as CryptoKey);
    const confused = await new SignJWT({ scope: "admin", aud: AUDIENCE, iss: idp.issuer })
      .setProtectedHeader({ alg: "HS256", kid: "rsa-1" })
      .setSubject("x")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(pem));
    await refused(confused, /signature/);
    const impostor = await startIdp();
    try {
      await impostor.addKey("rsa-1", "RS256");
      await refused(await impostor.sign("rsa-1", { iss: idp.issuer }), /signature/);
    } finally {
      await impostor.close();
    }
  });

  it("key rotation: a token with a new kid makes one fetch; made-up kids fetch at most once per cooldown", async () => {
    await sleep(COOLDOWN + 50); // past the cooldown of the last fetch
    await idp.addKey("rsa-2", "RS256");
    const before = idp.fetches;
    assert.equal((await call(`${s.url}/authors`, { headers: bearer(await idp.sign("rsa-2")) })).status, 200);
    assert.equal(idp.fetches, before + 1, "the new key was fetched");
    // Right after that fetch: unknown kids are refused without asking the provider again.
    for (let i = 0; i < 5; i++)
      await refused(
        await idp.sign("rsa-1", { sub: `made-up-${i}` }, { kid: `nope-${i}` }),
        /no key of the identity provider/,
      );
    assert.equal(idp.fetches, before + 1, "within the cooldown: no fetch");
    await sleep(COOLDOWN + 50);
    await refused(await idp.sign("rsa-1", { sub: "made-up-late" }, { kid: "nope-late" }), /no key/);
    await refused(await idp.sign("rsa-1", { sub: "made-up-later" }, { kid: "nope-later" }), /no key/);
    assert.equal(idp.fetches, before + 2, "one more fetch after the cooldown, not one per token");
    // The provider retires the old key: new tokens it signs stop verifying once the keys are fetched again.
    idp.retireKey("rsa-1");
    await idp.addKey("rsa-3", "RS256");
    await sleep(COOLDOWN + 50);
    assert.equal(
      (await call(`${s.url}/authors`, { headers: bearer(await idp.sign("rsa-3")) })).status,
      200,
      "fetches the set without rsa-1",
    );
    await refused(await idp.sign("rsa-1", { sub: "signed-after-retirement" }), /no key/);
  });

  it("HS256 with AUTH_SECRET keeps working beside the provider, under the same issuer and audience rules", async () => {
    const hs = (claims: Record<string, unknown>) =>
      new SignJWT({ scope: "admin", ...claims })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("ops")
        .setExpirationTime("5m")
        .sign(new TextEncoder().encode(TEST_SECRET));
    assert.equal(
      (await call(`${s.url}/authors`, { headers: bearer(await hs({ iss: idp.issuer, aud: AUDIENCE })) })).status,
      200,
    );
    await refused(await hs({}), /audience|issuer/);
  });
});

describe("identity provider unavailable, and configuration", () => {
  it("a provider that fails is asked again only after a pause; its keys once fetched keep serving", async () => {
    const idp = await startIdp();
    try {
      await idp.addKey("k", "ES256");
      idp.status = 503;
      const verifier = new TokenVerifier({ jwksUrl: idp.jwksUrl, audience: [AUDIENCE], jwks: { cooldownMs: 300 } });
      await assert.rejects(verifier.verify(await idp.sign("k")), /identity provider's keys could not be fetched/);
      await assert.rejects(verifier.verify(await idp.sign("k", { sub: "again" })), /could not be fetched/);
      assert.equal(idp.fetches, 1, "the second token did not fetch again at once");
      idp.status = 200;
      await sleep(350);
      assert.equal((await verifier.verify(await idp.sign("k", { sub: "later" }))).subject, "later");
      assert.equal(idp.fetches, 2);
      idp.status = 503; // cached keys keep working while the provider is down
      assert.equal((await verifier.verify(await idp.sign("k", { sub: "meanwhile" }))).subject, "meanwhile");
      assert.equal(idp.fetches, 2);
      // HS256 is refused when there is no secret: the provider's tokens only.
      await assert.rejects(
        verifier.verify(
          await new SignJWT({})
            .setProtectedHeader({ alg: "HS256" })
            .setSubject("x")
            .setExpirationTime("5m")
            .sign(new TextEncoder().encode(TEST_SECRET)),
        ),
        /must be signed with RS256, ES256 or EdDSA/,
      );
    } finally {
      await idp.close();
    }
  });

  it("reads AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE; production may run on the provider's keys alone", () => {
    assert.deepEqual(
      resolveSecret({
        NODE_ENV: "production",
        AUTH_JWKS_URL: "https://idp.example/jwks",
        AUTH_ISSUER: "https://idp.example/",
        AUTH_AUDIENCE: "a, b",
      }),
      {
        generated: false,
        jwksUrl: "https://idp.example/jwks",
        issuer: "https://idp.example/",
        audience: ["a", "b"],
      },
    );
    assert.throws(() => resolveSecret({ NODE_ENV: "production" }), /set AUTH_SECRET or AUTH_JWKS_URL/);
    assert.throws(() => resolveSecret({ AUTH_JWKS_URL: "ftp://idp/jwks" }), /AUTH_JWKS_URL must be an http\(s\) URL/);
  });

  it("npm start in production with only AUTH_JWKS_URL: the provider's tokens work, HS256 ones do not", async function () {
    this.timeout(60_000);
    const idp = await startIdp();
    await idp.addKey("k1", "RS256");
    const server = await startProcess({
      NODE_ENV: "production",
      AUTH_SECRET: "",
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: AUDIENCE,
      DATABASE_URL: "sqlite::memory:",
    });
    try {
      assert.equal((await call(`${server.url}/authors`, { headers: bearer(await idp.sign("k1")) })).status, 200);
      const hs = await call(`${server.url}/authors`);
      assert.equal(hs.status, 401);
      assert.match(hs.json.detail, /RS256, ES256 or EdDSA/);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      await idp.close();
    }
  });
});
