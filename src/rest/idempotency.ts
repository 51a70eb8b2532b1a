// Idempotency-Key on POST: the first response for a key is stored for 24 h and replayed for a repeat; the same
// key with a different request → 422; a repeat while the first is still running → 409. Wraps handlers, so it
// sees the validated request and the caller, and stores exactly what the handler answered.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { isUniqueViolation } from "../store/dialect.js";
import type { Database } from "../store/schema.js";
import { problem } from "../http/problem.js";

const TTL_MS = 24 * 60 * 60 * 1000;
/** A key still unanswered after this long belongs to a request whose server died (requests end far sooner). */
export const ABANDONED_MS = 60_000;
const KEY = "Idempotency-Key";

interface Response {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
type AnyHandler = (req: any, ctx: any) => Promise<any>;

export function fingerprint(operationId: string, req: { params?: unknown; query?: unknown; body?: unknown }): string {
  return createHash("sha256").update(JSON.stringify([operationId, req.params ?? {}, req.query ?? {}, req.body ?? null])).digest("base64url");
}


export function withIdempotency<T extends Record<string, AnyHandler>>(handlers: T, db: Kysely<Database>): T {
  const wrapped: Record<string, AnyHandler> = {};
  for (const [operationId, handler] of Object.entries(handlers)) {
    wrapped[operationId] = async (req, ctx) => {
      const key: string | undefined = req.headers?.[KEY];
      if (key === undefined) return handler(req, ctx);
      const scope: string = req.principal?.subject ?? "anonymous";
      const print = fingerprint(operationId, req);
      const claimed = await claim(db, scope, key, print);
      if (claimed !== true) return claimed;
      let response: Response;
      try {
        response = await handler(req, ctx);
      } catch (error) {
        // Nothing was acknowledged: free the key so the client may retry.
        await db.deleteFrom("idempotency_keys").where("scope", "=", scope).where("key", "=", key).execute();
        throw error;
      }
      await db
        .updateTable("idempotency_keys")
        .set({ status: response.status, headers: JSON.stringify(response.headers ?? {}), body: response.body === undefined ? null : JSON.stringify(response.body) })
        .where("scope", "=", scope)
        .where("key", "=", key)
        .execute();
      return response;
    };
  }
  return wrapped as T;
}

/** true = this request owns the key now; otherwise the response to give instead. */
async function claim(db: Kysely<Database>, scope: string, key: string, print: string): Promise<true | Response> {
  const at = new Date().toISOString();
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await db.insertInto("idempotency_keys").values({ scope, key, fingerprint: print, status: null, headers: null, body: null, created_at: at }).execute();
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db.selectFrom("idempotency_keys").selectAll().where("scope", "=", scope).where("key", "=", key).executeTakeFirst();
    if (!row) continue;
    if (Date.parse(row.created_at) + TTL_MS < Date.now()) {
      await db.deleteFrom("idempotency_keys").where("scope", "=", scope).where("key", "=", key).where("created_at", "=", row.created_at).execute();
      continue;
    }
    if (row.fingerprint !== print) {
      return { status: 422, body: problem(422, `Idempotency-Key "${key}" was already used with a different request; use a new key for a new request.`, { type: "urn:twinspec:problem:idempotency-key-reused" }) };
    }
    if (row.status === null && Date.parse(row.created_at) + ABANDONED_MS < Date.now()) {
      // The first request's server died before answering: nothing was acknowledged, so the key is free again.
      await db.deleteFrom("idempotency_keys").where("scope", "=", scope).where("key", "=", key).where("created_at", "=", row.created_at).execute();
      continue;
    }
    if (row.status === null) {
      return { status: 409, body: problem(409, `The first request with Idempotency-Key "${key}" is still being processed; retry shortly.`) };
    }
    return { status: row.status, headers: { ...JSON.parse(row.headers ?? "{}"), "Idempotent-Replayed": "true" }, body: row.body === null ? undefined : JSON.parse(row.body) };
  }
  throw new Error(`could not claim Idempotency-Key ${key}`);
}
