// Which database a Kysely instance (or transaction) talks to, for the few places that must differ.
import { PostgresAdapter, type Kysely } from "kysely";

export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
