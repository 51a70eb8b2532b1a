// The REST authorizer plugged into the generated wiring: the operation's `security` from openapi.yaml decides
// who may call (401 / 403 with RFC 6750 challenges), then the ownership rule (ownership.ts) decides on whose data.
import type { Context } from "koa";
import type { Ownership } from "../definition.js";
import type { Authorizer, OperationSpec } from "../http/rest-runtime.js";
import { header } from "../http/headers.js";
import { httpError } from "../http/problem.js";
import { refusal, type OwnerLookup, type Refusal } from "./ownership.js";
import { isAdmin, missingScopes, type Principal } from "./principal.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "./tokens.js";

const REALM = 'Bearer realm="twinspec"';

const unauthenticated = (detail: string, tokenSent: boolean) =>
  httpError(401, detail, { type: "urn:twinspec:problem:unauthenticated" }, {
    "WWW-Authenticate": tokenSent ? `${REALM}, error="invalid_token", error_description="${detail.replace(/"/g, "'")}"` : REALM,
  });

/**
 * Verifies the request's bearer token, if any: undefined = none sent; throws 401 for a bad one. Answers at once
 * (no promise) when there is no token or it was verified before: the common case, spared an async frame.
 */
export function principalOf(ctx: Context, verifier: TokenVerifier): Principal | undefined | Promise<Principal | undefined> {
  const token = tokenOf(header(ctx, "authorization"));
  if (token === undefined) return undefined;
  if (token === null) throw unauthenticated("the Authorization header must be `Bearer <token>`", true);
  return verifier.cached(token) ?? verified(verifier, token);
}

// The last Authorization header's token, kept: a client sends the same header on every request, and the same token
// string each time spares the cache lookup hashing a fresh 250-character key (and the pattern's walk over it).
let lastHeader: string | undefined;
let lastToken: ReturnType<typeof bearerToken>;
function tokenOf(authorization: string | undefined): ReturnType<typeof bearerToken> {
  if (authorization !== lastHeader) {
    lastToken = bearerToken(authorization);
    lastHeader = authorization;
  }
  return lastToken;
}

async function verified(verifier: TokenVerifier, token: string): Promise<Principal> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthenticated(error.message, true);
    throw error;
  }
}

export function restAuthorizer(verifier: TokenVerifier, owners: OwnerLookup, restOwnership: Readonly<Record<string, Ownership>>): Authorizer {
  // Per operation, once: whether it is public, and the scopes each of its alternatives needs.
  const needs = new WeakMap<OperationSpec["security"], { open: boolean; scopes: string[][] }>();
  const needsOf = (security: OperationSpec["security"]) => {
    let found = needs.get(security);
    if (!found) needs.set(security, (found = { open: security.length === 0 || security.some((alternative) => alternative.length === 0), scopes: security.map((alternative) => alternative.flatMap((r) => r.scopes)) }));
    return found;
  };
  // Synchronous unless the token or the owner must be looked up: each async frame costs a promise per request.
  return (security, ctx, operation, pathParams) => {
    const found = principalOf(ctx, verifier);
    return found instanceof Promise ? found.then((principal) => decide(principal, security, ctx, operation, pathParams)) : decide(found, security, ctx, operation, pathParams);
  };

  function decide(principal: Principal | undefined, security: OperationSpec["security"], ctx: Context, operation: OperationSpec, pathParams: Record<string, string>): Principal | null | Promise<Principal> {
    const { open, scopes } = needsOf(security);
    if (open) return principal ?? null;
    if (!principal) throw unauthenticated("this operation needs a bearer token (Authorization: Bearer <token>)", false);
    ctx.state.principal = principal;
    if (isAdmin(principal)) return principal; // every scope
    // Any alternative whose scopes the principal holds in full will do; otherwise name what the first one lacks.
    const lacking = scopes.map((required) => missingScopes(principal, required));
    if (!lacking.some((missing) => missing.length === 0)) {
      throw httpError(403, `this operation needs the scope(s) ${lacking[0].join(", ")}`, { type: "urn:twinspec:problem:insufficient-scope" }, {
        "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${scopes[0].join(" ")}"`,
      });
    }
    const refused = refusal(principal, restOwnership[operation.operationId], pathParams, owners);
    const allowed = (refused: Refusal | undefined) => {
      if (refused === "collection") throw httpError(403, "this operation covers what every owner holds; only an admin token may call it", { type: "urn:twinspec:problem:forbidden" });
      if (refused) throw httpError(403, "this resource is not owned by the token's subject; it may not read or change it", { type: "urn:twinspec:problem:forbidden" });
      return principal;
    };
    return refused instanceof Promise ? refused.then(allowed) : allowed(refused);
  }
}
