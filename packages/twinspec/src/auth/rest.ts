// The REST authorizer plugged into the generated wiring: the operation's `security` from openapi.yaml decides
// who may call (401 / 403 with RFC 6750 challenges), then the ownership rule (ownership.ts) decides on whose data.
import type { Context } from "koa";
import type { Ownership } from "../definition.js";
import type { Authorizer, OperationSpec } from "../runtime/index.js";
import { header } from "../runtime/headers.js";
import { refusalOf } from "../runtime/problems.js";
import { ownership, ownerRefusal, type OwnerLookup } from "./ownership.js";
import { isAdmin, missingScopes, type Principal } from "./principal.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "./tokens.js";

const REALM = 'Bearer realm="twinspec"';

const unauthenticated = (detail: string, tokenSent: boolean) =>
  refusalOf(
    "unauthenticated",
    detail,
    {},
    {
      "WWW-Authenticate": tokenSent
        ? `${REALM}, error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`
        : REALM,
    },
  );

/** Verifies the request's bearer token, if any: undefined = none sent; rejects with 401 for a bad one. */
export async function principalOf(ctx: Context, verifier: TokenVerifier): Promise<Principal | undefined> {
  const token = bearerToken(header(ctx, "authorization"));
  if (token === undefined) return undefined;
  if (token === null) throw unauthenticated("the Authorization header must be `Bearer <token>`", true);
  // A token verified before is answered without verify's own promise: the common case, on every request.
  const cached = verifier.cached(token);
  if (cached) return cached;
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw unauthenticated(error.message, true);
    throw error;
  }
}

export function restAuthorizer(
  verifier: TokenVerifier,
  owners: OwnerLookup,
  restOwnership: Readonly<Record<string, Ownership>>,
): Authorizer {
  // Per operation, once: whether it is public, and the scopes each of its alternatives needs.
  const needs = new WeakMap<OperationSpec["security"], { open: boolean; scopes: string[][] }>();
  const needsOf = (security: OperationSpec["security"]) => {
    let found = needs.get(security);
    if (!found)
      needs.set(
        security,
        (found = {
          open: security.length === 0 || security.some((alternative) => alternative.length === 0),
          scopes: security.map((alternative) => alternative.flatMap((r) => r.scopes)),
        }),
      );
    return found;
  };
  return async (security, ctx, operation, pathParams) => {
    const principal = await principalOf(ctx, verifier);
    const { open, scopes } = needsOf(security);
    if (open) return principal ?? null;
    if (!principal) throw unauthenticated("this operation needs a bearer token (Authorization: Bearer <token>)", false);
    ctx.state.principal = principal;
    if (isAdmin(principal)) return principal; // every scope
    // Any alternative whose scopes the principal holds in full will do; otherwise name what the first one lacks.
    const lacking = scopes.map((required) => missingScopes(principal, required));
    if (!lacking.some((missing) => missing.length === 0)) {
      throw refusalOf(
        "insufficient_scope",
        `this operation needs the scope(s) ${lacking[0].join(", ")}`,
        {},
        {
          "WWW-Authenticate": `${REALM}, error="insufficient_scope", scope="${scopes[0].join(" ")}"`,
        },
      );
    }
    const rule = ownership(principal, restOwnership[operation.operationId], pathParams);
    const refused = typeof rule === "object" ? await ownerRefusal(principal, rule, owners) : rule;
    if (refused === "collection")
      throw refusalOf("forbidden", "this operation covers what every owner holds; only an admin token may call it");
    if (refused)
      throw refusalOf("forbidden", "this resource is not owned by the token's subject; it may not read or change it");
    return principal;
  };
}
