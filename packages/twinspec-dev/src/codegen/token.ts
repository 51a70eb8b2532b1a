// `twinspec token --sub ID --scope "…" [--ttl 1h]` (npm run token): prints a bearer token signed with AUTH_SECRET (with
// the iss and aud the server checks, when AUTH_ISSUER / AUTH_AUDIENCE are set). The token acts for what its subject
// owns, as each resource's x-resource declares (admin: for everything); the scopes are those openapi.yaml's x-scopes
// declare.
import { parseArgs } from "node:util";
import { readScopes } from "./model/contract.js";
import { loadWithParts } from "./load/parts.js";
import { projectFile } from "twinspec/internals";
import { allScopes } from "twinspec/internals";
import { parseTtl, signToken } from "twinspec/internals";

export async function tokenCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        sub: { type: "string" },
        scope: { type: "string" },
        ttl: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const secret = env.AUTH_SECRET;
  if (!secret) {
    console.error("AUTH_SECRET is not set: export the same secret the server uses, then run this again.");
    return 1;
  }
  if (!values.sub) {
    console.error(usage());
    return 2;
  }
  try {
    const issuer = env.AUTH_ISSUER?.trim() || undefined;
    const audience = env.AUTH_AUDIENCE?.split(",")[0]?.trim() || undefined;
    console.log(
      await signToken(secret, {
        sub: values.sub,
        scope: values.scope ?? "",
        ttlSeconds: parseTtl(values.ttl ?? "1h"),
        issuer,
        audience,
      }),
    );
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
}

function usage(): string {
  let declared = "";
  try {
    declared = `\nscopes (openapi.yaml x-scopes): ${allScopes(readScopes(loadWithParts(projectFile("openapi.yaml")), () => {}))}`;
  } catch {
    // no readable openapi.yaml here: the usage alone
  }
  return `usage: twinspec token --sub <owner id|admin name> --scope "<scopes>" [--ttl 1h]\n  --sub  whom the token acts for: the id its resources name as their owner (x-resource owner), or any name with the admin scope\n  AUTH_SECRET must be the server's (AUTH_ISSUER / AUTH_AUDIENCE too, when it checks them)${declared}`;
}
