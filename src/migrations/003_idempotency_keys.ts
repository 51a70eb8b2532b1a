// Migration 003_idempotency_keys: its table is Twinspec's now (the twinspec package's own migrations create it before these run).
// Kept, empty, because databases that ran it list it: a migration they ran may not disappear.
import type { Kysely } from "kysely";

export async function up(_db: Kysely<any>): Promise<void> {}
