// A stand-in identity provider on 127.0.0.1: serves its public keys as a JWKS (counting fetches, able to fail on
// demand), rotates keys, and signs tokens with them the way providers do (RS256, ES256, EdDSA; kid in the header).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

type IdpAlg = "RS256" | "ES256" | "EdDSA";

export interface Idp {
  jwksUrl: string;
  issuer: string;
  /** JWKS requests served so far */
  fetches: number;
  /** answer JWKS requests with this status (and no keys) until set back to 200 */
  status: number;
  /** publishes a new key (key rotation) */
  addKey(kid: string, alg: IdpAlg): Promise<void>;
  /** stops publishing a key (it can still sign, as a leaked or retired key could) */
  retireKey(kid: string): void;
  /** a token signed with key `kid`; sub, iss, aud, exp default to a valid admin token for `audience` */
  sign(
    kid: string,
    claims?: JWTPayload & { ttl?: number },
    header?: { alg?: string; kid?: string | null },
  ): Promise<string>;
  close(): Promise<void>;
}

export const AUDIENCE = "twinspec-api";

export async function startIdp(): Promise<Idp> {
  const keys = new Map<string, { alg: IdpAlg; privateKey: CryptoKey; jwk: JWK; published: boolean }>();
  const server: Server = createServer((req, res) => {
    if (req.url !== "/.well-known/jwks.json") return void res.writeHead(404).end();
    idp.fetches++;
    if (idp.status !== 200) return void res.writeHead(idp.status).end("unavailable");
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ keys: [...keys.values()].filter((k) => k.published).map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: Idp = {
    jwksUrl: `${base}/.well-known/jwks.json`,
    issuer: `${base}/`,
    fetches: 0,
    status: 200,
    async addKey(kid, alg) {
      const { publicKey, privateKey } = await generateKeyPair(alg);
      keys.set(kid, {
        alg,
        privateKey,
        jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" },
        published: true,
      });
    },
    retireKey: (kid) => void (keys.get(kid)!.published = false),
    async sign(kid, { ttl = 600, ...claims } = {}, header = {}) {
      const key = keys.get(kid)!;
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({
        sub: "idp-admin",
        scope: "admin",
        iss: idp.issuer,
        aud: AUDIENCE,
        iat: now,
        exp: now + ttl,
        ...claims,
      });
      jwt.setProtectedHeader({
        alg: header.alg ?? key.alg,
        typ: "JWT",
        ...(header.kid === null ? {} : { kid: header.kid ?? kid }),
      });
      return jwt.sign(key.privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return idp;
}
