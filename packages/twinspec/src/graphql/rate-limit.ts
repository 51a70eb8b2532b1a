// Rate limits on GraphQL, for every transport (HTTP, graphql-ws, SSE): each operation spends its query cost (the one
// the cost limit computes, at least 1) from the budget of its operation type (generated/contract.ts), before it runs.
// A document refused by validation spends what validation found it would cost (at most the cost limit); one that does
// not parse, or whose cost was not reached, spends 1 from the query budget. Over budget: RATE_LIMITED, and on HTTP
// a 429 with Retry-After; the RateLimit-Policy and RateLimit fields go on every HTTP answer.
import { GraphQLError } from "graphql";
import type { Response } from "graphql-http";
import type { Prepared } from "./operation.js";
import type { Budget, Decision, RateLimiter } from "../rate-limit/limiter.js";
import { rateLimitHeaders } from "../rate-limit/fields.js";

export type GraphqlCharge = (caller: string, prepared: Prepared, operationName?: string | null) => Decision | undefined;

/** `budgets`: operation type → budget name. */
export function graphqlCharge(
  limiter: RateLimiter,
  budgets: Partial<Record<"query" | "mutation" | "subscription", string>>,
): GraphqlCharge {
  const byType: Partial<Record<string, Budget>> = Object.fromEntries(
    Object.entries(budgets).map(([type, name]) => [type, limiter.budget(name)]),
  );
  return (caller, prepared, operationName) => {
    const costs = prepared.costs;
    const op = !costs
      ? undefined
      : operationName
        ? costs.get(operationName)
        : costs.size === 1
          ? costs.values().next().value
          : undefined;
    const budget = byType[op?.type ?? "query"];
    return budget && limiter.take(budget, caller, Math.max(1, op?.cost ?? 1));
  };
}

export function rateLimitedError(d: Decision): GraphQLError {
  const message =
    d.cost > d.limit
      ? `Rate limit exceeded: this operation costs ${d.cost}, more than the whole budget of ${d.limit} per window; ask for fewer items.`
      : `Rate limit exceeded: this operation costs ${d.cost}, more than the ${d.remaining} left of ${d.limit} per window; retry in ${d.reset} s.`;
  return new GraphQLError(message, {
    extensions: {
      code: "RATE_LIMITED",
      retryAfterSeconds: d.reset,
      cost: d.cost,
      limit: d.limit,
      remaining: d.remaining,
    },
  });
}

/** GraphQL over HTTP: the whole request refused, 429 with Retry-After, in the media type the client accepts. */
export function rateLimitedResponse(d: Decision, accept: string): Response {
  const type = /application\/graphql-response\+json/i.test(accept)
    ? "application/graphql-response+json"
    : "application/json";
  const body = JSON.stringify({ errors: [rateLimitedError(d).toJSON()] });
  return [
    body,
    {
      status: 429,
      statusText: "Too Many Requests",
      headers: { "content-type": `${type}; charset=utf-8`, "Retry-After": String(d.reset), ...rateLimitHeaders(d) },
    },
  ];
}
