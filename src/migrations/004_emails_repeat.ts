// Migration 004_emails_repeat: POST creates each time it is sent (SERVICE-SPEC §4.1 rule 1), so two customers may
// share an email; the unique index of 001 goes.
import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("customers_live_email").execute();
}
