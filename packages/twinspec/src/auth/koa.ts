// The caller of GraphQL requests (HTTP and SSE): a sent token must verify, or the whole request is refused with
// 401; no token means an anonymous caller, whose protected fields answer UNAUTHENTICATED one by one.
import type { IncomingMessage } from "node:http";
import type { Context, Middleware } from "koa";
import { HttpError } from "../runtime/problem.js";
import { PROBLEMS, refusalOf } from "../runtime/problems.js";
import type { Principal } from "./principal.js";
import { principalOf } from "./rest.js";
import { bearerToken, InvalidTokenError, type TokenVerifier } from "./tokens.js";

export function graphqlCaller(verifier: TokenVerifier): Middleware {
  return async (ctx, next) => {
    let principal: Principal | undefined;
    try {
      principal = await principalOf(ctx, verifier);
    } catch (error) {
      return refuse(ctx, error);
    }
    ctx.state.principal = principal ?? null;
    await next();
  };
}

/** A token that does not verify: the whole request refused, 401 with the challenge, as a GraphQL error (not a problem: GraphQL over HTTP answers its own shape). */
function refuse(ctx: Context, error: unknown): void {
  if (!(error instanceof HttpError)) throw error;
  ctx.status = PROBLEMS.unauthenticated.status;
  ctx.set(error.headers);
  ctx.type = "application/json";
  ctx.body = { errors: [{ message: error.problem.detail, extensions: { code: PROBLEMS.unauthenticated.code } }] };
}

/** graphql-ws: the caller from connection_init `{ authorization: "Bearer …" }`, else the upgrade request's header. */
export function socketCaller(verifier: TokenVerifier) {
  return async (params: Record<string, unknown> | undefined, request: IncomingMessage): Promise<Principal | null> => {
    const fromParams =
      typeof params?.authorization === "string"
        ? params.authorization
        : typeof params?.Authorization === "string"
          ? params.Authorization
          : undefined;
    const header = fromParams ?? request.headers.authorization;
    const token = bearerToken(header);
    if (token === undefined) return null;
    if (token === null) throw new InvalidTokenError("authorization must be `Bearer <token>`");
    return verifier.verify(token);
  };
}

/** /metrics is public unless METRICS_TOKEN is set; then it needs that exact bearer token. */
export function metricsGuard(metricsToken: string | undefined): Middleware {
  return async (ctx, next) => {
    if (metricsToken && bearerToken(ctx.get("Authorization") || undefined) !== metricsToken) {
      throw refusalOf(
        "metrics_unauthorized",
        "/metrics needs `Authorization: Bearer <METRICS_TOKEN>`",
        {},
        { "WWW-Authenticate": 'Bearer realm="twinspec-metrics"' },
      );
    }
    await next();
  };
}

/** /metrics in production with neither METRICS_TOKEN nor METRICS_PORT: refused, saying how to open it. */
export const metricsClosed: Middleware = () => {
  throw refusalOf(
    "metrics_closed",
    "/metrics is closed in production until it is guarded: set METRICS_TOKEN (then send `Authorization: Bearer <METRICS_TOKEN>`) or METRICS_PORT (a listener of its own, kept off the public network).",
  );
};
