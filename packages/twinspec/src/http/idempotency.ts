// Idempotency-Key on POST (draft-ietf-httpapi-idempotency-key-header): the first answer for a key — failures
// included — is stored for 24 h and replayed for a repeat; the same key with a different request → 422; a repeat
// while the first is still running → 409. It runs around every operation that declares the header, so it sees the
// validated request and the caller, and stores exactly what was answered. The SQL is the store's.
import { createHash } from "node:crypto";
import type { IdempotencyKeys } from "../store/idempotency.js";
import { answerOf } from "../runtime/problems.js";
import type { Around, HandlerResponse } from "../runtime/index.js";

const TTL_MS = 24 * 60 * 60 * 1000;
/** A key still unanswered after this long belongs to a request whose server died (requests end far sooner). */
export const ABANDONED_MS = 60_000;
const KEY = "Idempotency-Key";

interface KeyedRequest {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  principal?: { subject: string } | null;
}

export function fingerprint(operationId: string, req: KeyedRequest): string {
  return createHash("sha256")
    .update(JSON.stringify([operationId, req.params ?? {}, req.query ?? {}, req.body ?? null]))
    .digest("base64url");
}

export function idempotency(keys: IdempotencyKeys): Around {
  const around: Around = async (call, invoke) => {
    const req = call.request as KeyedRequest;
    const key = req.headers?.[KEY];
    if (key === undefined) return invoke();
    const scope = req.principal?.subject ?? "anonymous";
    const claimed = await claim(keys, scope, key, fingerprint(call.operation.operationId, req));
    if (claimed !== true) return claimed;
    let response: HandlerResponse;
    try {
      response = await invoke();
    } catch (error) {
      // Nothing was acknowledged: free the key so the client may retry.
      await keys.release(scope, key);
      throw error;
    }
    await keys.answer(scope, key, { status: response.status, headers: response.headers ?? {}, body: response.body });
    return response;
  };
  // Only operations that declare the header: the key is read from the validated headers, which hold no other.
  around.appliesTo = (operation) =>
    operation.parameters.some((p) => p.in === "header" && p.name.toLowerCase() === KEY.toLowerCase());
  return around;
}

/** true = this request owns the key now; otherwise the response to give instead. */
async function claim(
  keys: IdempotencyKeys,
  scope: string,
  key: string,
  print: string,
): Promise<true | HandlerResponse> {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await keys.claim(scope, key, print, new Date().toISOString())) return true;
    const row = await keys.find(scope, key);
    if (!row) continue;
    if (Date.parse(row.createdAt) + TTL_MS < Date.now()) {
      await keys.release(scope, key, row.createdAt);
      continue;
    }
    if (row.fingerprint !== print) {
      return answerOf(
        "idempotency_key_reused",
        `Idempotency-Key "${key}" was already used with a different request; use a new key for a new request.`,
      );
    }
    if (!row.answer && Date.parse(row.createdAt) + ABANDONED_MS < Date.now()) {
      // The first request's server died before answering: nothing was acknowledged, so the key is free again.
      await keys.release(scope, key, row.createdAt);
      continue;
    }
    if (!row.answer)
      return answerOf(
        "in_progress",
        `The first request with Idempotency-Key "${key}" is still being processed; retry shortly.`,
      );
    return {
      status: row.answer.status,
      headers: { ...row.answer.headers, "Idempotent-Replayed": "true" },
      body: row.answer.body,
    };
  }
  throw new Error(`could not claim Idempotency-Key ${key}`);
}
