// One delivery attempt: the Standard Webhooks envelope `{ type, timestamp, data }` POSTed to the endpoint, signed by
// the `standardwebhooks` library with every secret that still signs (during a rotation, the new and the old), to the
// address checked beforehand (address-guard.ts). No redirect is followed (a 3xx is not received), the answer's body
// is read up to a small limit and dropped, and a receiver that does not answer in time is a failed attempt.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { checkedAddress, pinnedLookup, type AddressPolicy } from "./address-guard.js";

/** What a receiver answered, or why it did not. */
export interface AttemptResult {
  /** the receiver's status (undefined: no answer) */
  status?: number;
  /** why it does not count as received (undefined: a 2xx) */
  error?: string;
  /** seconds the receiver asked to wait (Retry-After), if it did */
  retryAfterSeconds?: number;
  latencyMs: number;
}

export interface Delivery {
  url: string;
  /** the event's id (its position in the log): webhook-id */
  id: string;
  type: string;
  /** the event's payload */
  data: unknown;
  /** the secrets that sign, newest first */
  secrets: string[];
}

const BODY_LIMIT = 4096;

/** Sends one delivery; never throws: every failure is an AttemptResult with an error. */
export async function send(
  delivery: Delivery,
  policy: AddressPolicy,
  timeoutMs: number,
  now = new Date(),
): Promise<AttemptResult> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const body = JSON.stringify({ type: delivery.type, timestamp: now.toISOString(), data: delivery.data });
  const signature = delivery.secrets.map((s) => new Webhook(s).sign(delivery.id, now, body)).join(" ");
  const url = new URL(delivery.url);
  try {
    const checked = await checkedAddress(url.hostname, policy);
    const request = url.protocol === "https:" ? httpsRequest : httpRequest;
    return await new Promise<AttemptResult>((resolve) => {
      const req = request(
        url,
        {
          method: "POST",
          lookup: pinnedLookup(checked),
          timeout: timeoutMs,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            "user-agent": "twinspec-webhooks",
            "webhook-id": delivery.id,
            "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
            "webhook-signature": signature,
          },
        },
        (res) => {
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > BODY_LIMIT) res.destroy();
          });
          const done = () => {
            const status = res.statusCode ?? 0;
            const retryAfterSeconds = retryAfter(res.headers["retry-after"], now);
            const ok = status >= 200 && status < 300;
            resolve({
              status,
              latencyMs: latencyMs(),
              ...(ok ? {} : { error: `answered ${status}` }),
              ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
            });
          };
          res.on("end", done);
          res.on("close", done);
          res.on("error", done);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on("error", (err) => resolve({ error: err.message, latencyMs: latencyMs() }));
      req.end(body);
    });
  } catch (err) {
    return { error: (err as Error).message, latencyMs: latencyMs() };
  }
}

/** Retry-After in seconds: delta-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
function retryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
