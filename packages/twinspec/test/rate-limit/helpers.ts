// What the rate-limit tests share: budgets of an hour (so no window ends mid-test), requests from another loopback
// address (anonymous callers are told apart by address), and the RateLimit-Policy and RateLimit fields of an answer.
import assert from "node:assert/strict";
import { request } from "node:http";
import { parseList, serializeList, type Item } from "structured-headers";
import { rateLimits } from "../fixture/generated/contract.js";
import type { BudgetSpec } from "../../src/rate-limit/limiter.js";

/** Every budget of the specs as `limit` per hour, unless given. */
export function hourly(limits: Record<string, number>, others = 1000): Record<string, BudgetSpec> {
  return Object.fromEntries(Object.keys(rateLimits.budgets).map((name) => [name, { limit: limits[name] ?? others, window: 3600 }]));
}

/** Waits while the current hour ends in less than `seconds`, so a test's counts all fall in one window. */
export async function clearOfWindowEnd(seconds = 30, windowSeconds = 3600) {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

/**
 * The RateLimit-Policy and RateLimit fields of an answer (draft-ietf-httpapi-ratelimit-headers-10), read by a Structured
 * Field parser we did not write (structured-headers): each a List of one Item, the budget's name as an sf-string with
 * Integer parameters (q, w; r, t), the same name in both, serialized canonically — and none of the -06 fields left.
 */
export const fields = (headers: Headers | Record<string, string | string[] | undefined>) => {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined)) ?? undefined;
  for (const old of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) assert.equal(get(old), undefined, `${old} is a field of draft -06`);
  const item = (name: string, params: string[]) => {
    const raw = get(name);
    assert.equal(typeof raw, "string", `${name} is sent once`);
    const list = parseList(raw!);
    assert.equal(serializeList(list), raw, `${name} is canonical`);
    assert.equal(list.length, 1, `${name}: one policy`);
    const [value, parameters] = list[0] as Item;
    assert.equal(typeof value, "string", `${name}: the policy is named by an sf-string`);
    assert.deepEqual([...parameters.keys()], params, `${name}: parameters`);
    for (const [key, n] of parameters) assert.ok(Number.isInteger(n) && (n as number) >= 0, `${name}: ${key} is a non-negative Integer`);
    return [value as string, Object.fromEntries(parameters) as Record<string, number>] as const;
  };
  const [policy, { q, w }] = item("ratelimit-policy", ["q", "w"]);
  const [named, { r, t }] = item("ratelimit", ["r", "t"]);
  assert.equal(named, policy, "RateLimit names the policy of RateLimit-Policy");
  const retryAfter = get("retry-after");
  return { policy, limit: q, window: w, remaining: r, reset: t, retryAfter: retryAfter === undefined ? undefined : Number(retryAfter) };
};

/** A request sent from another loopback address (127.0.0.2, …): another anonymous caller. */
export function fromAddress(url: string, localAddress: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }>((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers: init.headers, localAddress, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
