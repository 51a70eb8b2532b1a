// `npm run token -- --sub ID --scope "…" [--ttl 1h]`: prints a bearer token signed with AUTH_SECRET (with the iss
// and aud the server checks, when AUTH_ISSUER / AUTH_AUDIENCE are set).
import { ALL_SCOPES } from "./secret.js";
import { parseTtl, signToken } from "./tokens.js";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const secret = process.env.AUTH_SECRET;
if (!secret) {
  console.error("AUTH_SECRET is not set: export the same secret the server uses, then run this again.");
  process.exit(1);
}
const sub = arg("sub");
if (!sub) {
  console.error(`usage: npm run token -- --sub <customerId|admin-name> --scope "<scopes>" [--ttl 1h]\nscopes: ${ALL_SCOPES}`);
  process.exit(1);
}
try {
  const issuer = process.env.AUTH_ISSUER?.trim() || undefined;
  const audience = process.env.AUTH_AUDIENCE?.split(",")[0]?.trim() || undefined;
  console.log(await signToken(secret, { sub, scope: arg("scope") ?? "", ttlSeconds: parseTtl(arg("ttl") ?? "1h"), issuer, audience }));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
