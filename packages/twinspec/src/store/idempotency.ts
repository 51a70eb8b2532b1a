// The idempotency_keys table: who used which key for which request, and the answer stored for it. The HTTP
// semantics (fingerprints, 409/422, replay) live in src/http/idempotency.ts; this is only the SQL.
import type { Kysely } from "kysely";
import { isUniqueViolation } from "./dialect.js";
import type { Database } from "./schema.js";

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
}

export type KeyRow = { fingerprint: string; createdAt: string; answer: StoredAnswer | null };

export class IdempotencyKeys {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes the key for a new request: true, or false when someone holds it already. */
  async claim(scope: string, key: string, fingerprint: string, at: string): Promise<boolean> {
    try {
      await this.db
        .insertInto("idempotency_keys")
        .values({ scope, key, fingerprint, status: null, headers: null, body: null, created_at: at })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async find(scope: string, key: string): Promise<KeyRow | undefined> {
    const row = await this.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("scope", "=", scope)
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row) return undefined;
    const answer =
      row.status === null
        ? null
        : {
            status: row.status,
            headers: JSON.parse(row.headers ?? "{}"),
            body: row.body === null ? undefined : JSON.parse(row.body),
          };
    return { fingerprint: row.fingerprint, createdAt: row.created_at, answer };
  }

  async answer(scope: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db
      .updateTable("idempotency_keys")
      .set({
        status: answer.status,
        headers: JSON.stringify(answer.headers),
        body: answer.body === undefined ? null : JSON.stringify(answer.body),
      })
      .where("scope", "=", scope)
      .where("key", "=", key)
      .execute();
  }

  /** Frees the key (only the claim made at `createdAt`, when given), so the client may use it again. */
  async release(scope: string, key: string, createdAt?: string): Promise<void> {
    let query = this.db.deleteFrom("idempotency_keys").where("scope", "=", scope).where("key", "=", key);
    if (createdAt) query = query.where("created_at", "=", createdAt);
    await query.execute();
  }
}
