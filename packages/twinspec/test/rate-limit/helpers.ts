// What the rate-limit tests share: budgets of an hour (so no window ends mid-test), requests from another loopback
// address (anonymous callers are told apart by address), and the RateLimit-Policy and RateLimit fields of an answer.
import { request } from "node:http";
import { definition } from "../fixture/generated/wiring.js";
import type { BudgetSpec } from "../../src/rate-limit/limiter.js";
import { hourly as kitHourly, rateLimitFields } from "../../../twinspec-dev/src/testing/rate-limit.js";

/** Every budget of the fixture's specs as `limit` per hour, unless given (the kit's, on the fixture's contract). */
export const hourly = (limits: Record<string, number>, others = 1000): Record<string, BudgetSpec> =>
  kitHourly(definition, limits, others);

/** Waits while the current hour ends in less than `seconds`, so a test's counts all fall in one window. */
export async function clearOfWindowEnd(seconds = 30, windowSeconds = 3600) {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

/** The RateLimit-Policy and RateLimit fields of an answer, read as the kit's walks read them. */
export const fields = rateLimitFields;

/** A request sent from another loopback address (127.0.0.2, …): another anonymous caller. */
export function fromAddress(
  url: string,
  localAddress: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; json: any }>(
    (resolve, reject) => {
      const req = request(
        url,
        { method: init.method ?? "GET", headers: init.headers, localAddress, agent: false },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined }),
          );
        },
      );
      req.on("error", reject);
      req.end(init.body);
    },
  );
}
