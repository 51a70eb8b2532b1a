// What the rate-limit walks read: budgets of an hour (so no window ends mid-test), and the RateLimit-Policy and
// RateLimit fields of an answer.
import assert from "node:assert/strict";
import { parseList, serializeList, type Item } from "structured-headers";
import type { AppDefinition } from "twinspec/internals";
import type { BudgetSpec } from "twinspec/internals";

/**
 * Every budget of the application's specs with a window of an hour (so no window ends mid-test): what a test
 * server's `rateLimits.overrides` takes.
 *
 * @param definition - the application (its `contract.rateLimits.budgets`)
 * @param limits - the limit of some budgets by name
 * @param others - the limit of every other budget (default 1000)
 */
export function hourly(
  definition: Pick<AppDefinition, "contract">,
  limits: Record<string, number>,
  others = 1000,
): Record<string, BudgetSpec> {
  return Object.fromEntries(
    Object.keys(definition.contract.rateLimits.budgets).map((name) => [
      name,
      { limit: limits[name] ?? others, window: 3600 },
    ]),
  );
}

/**
 * The RateLimit-Policy and RateLimit fields of an answer (draft-ietf-httpapi-ratelimit-headers-10), read by a Structured
 * Field parser we did not write (structured-headers): each a List of one Item, the budget's name as an sf-string with
 * Integer parameters (q, w; r, t), the same name in both, serialized canonically — and none of the -06 fields left.
 * Asserts all that, and returns `{ policy, limit, window, remaining, reset, retryAfter }`.
 *
 * @param headers - the answer's headers (fetch's Headers, or Node's header object)
 */
export const rateLimitFields = (headers: Headers | Record<string, string | string[] | undefined>) => {
  const get = (name: string) =>
    (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined)) ?? undefined;
  for (const old of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"])
    assert.equal(get(old), undefined, `${old} is a field of draft -06`);
  const item = (name: string, params: string[]) => {
    const raw = get(name);
    assert.equal(typeof raw, "string", `${name} is sent once`);
    const list = parseList(raw!);
    assert.equal(serializeList(list), raw, `${name} is canonical`);
    assert.equal(list.length, 1, `${name}: one policy`);
    const [value, parameters] = list[0] as Item;
    assert.equal(typeof value, "string", `${name}: the policy is named by an sf-string`);
    assert.deepEqual([...parameters.keys()], params, `${name}: parameters`);
    for (const [key, n] of parameters)
      assert.ok(Number.isInteger(n) && (n as number) >= 0, `${name}: ${key} is a non-negative Integer`);
    return [value as string, Object.fromEntries(parameters) as Record<string, number>] as const;
  };
  const [policy, { q, w }] = item("ratelimit-policy", ["q", "w"]);
  const [named, { r, t }] = item("ratelimit", ["r", "t"]);
  assert.equal(named, policy, "RateLimit names the policy of RateLimit-Policy");
  const retryAfter = get("retry-after");
  return {
    policy,
    limit: q,
    window: w,
    remaining: r,
    reset: t,
    retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
  };
};
