// The store behaves the same on SQLite and PostgreSQL (this file runs in both passes of npm test): numbers come
// back as numbers, text sorts byte-wise, migrations run once even when several instances start at once.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { sql } from "kysely";
import type { Services } from "../../generated/wiring.js";
import { projections } from "../../packages/twinspec/src/domain/projection.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import { prepared, preparedIn, preparedInRaw, projectedByKey } from "../../packages/twinspec/src/store/prepared.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";
import { domainOn } from "../support/services.js";

describe(`store on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let services: Services;
  beforeEach(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    ({ services } = domainOn(store));
  });
  afterEach(async () => {
    await store.close();
    await database.drop();
  });
  const customer = (n: number | string) =>
    services.customers.create({ firstName: "A", lastName: "B", email: `s${n}@example.com` });

  it("reports its dialect", () => assert.equal(store.dialect, testDatabaseKind()));

  it("a PostgreSQL URL that cannot be reached is refused with where and why, without the password", async () => {
    await assert.rejects(openStore("postgres://me:secret@127.0.0.1:1/nowhere"), (e: Error) => {
      assert.match(e.message, /^cannot use PostgreSQL at 127\.0\.0\.1:1\/nowhere: .*ECONNREFUSED/);
      assert.doesNotMatch(e.message, /secret/);
      return true;
    });
  });

  it("a migration failed by another client's schema vanishing under it is tried again; one that lost its own is not", async () => {
    // What PostgreSQL answers when a schema goes while Kysely's Migrator looks for its tables in every schema by name,
    // to the migration's first query (on PostgreSQL the store asks for current_schema() before it).
    const first = testDatabaseKind() === "postgres" ? 1 : 0;
    let queries = 0;
    const vanishing = (schema: string) => () => {
      if (queries++ === first) throw Object.assign(new Error(`schema "${schema}" does not exist`), { code: "3F000" });
    };
    const other = await freshDatabase();
    try {
      const opened = await openStore(other.url, { beforeQuery: vanishing("t_another_run") });
      assert.ok(queries > 1, "the migration ran again");
      assert.deepEqual(await opened.db.selectFrom("customers").select("customer_id").execute(), []);
      await opened.close();
      if (testDatabaseKind() === "postgres") {
        const own = new URL(other.url).searchParams.get("options")!.replace("-c search_path=", "");
        queries = 0;
        await assert.rejects(
          openStore(other.url, { beforeQuery: vanishing(own) }),
          new RegExp(`migration .* failed: schema "${own}" does not exist`),
        );
        assert.equal(queries, first + 1, "not tried again");
      }
    } finally {
      await other.drop();
    }
  });

  it("totals, versions and counts come back as JS numbers", async () => {
    const c = await customer(1);
    const placed = await services.orders.place(c.customerId, {
      items: [
        { sku: "x", quantity: 3, unitPrice: 0.1 },
        { sku: "y", quantity: 1, unitPrice: 19.99 },
      ],
    });
    const row = await store.db
      .selectFrom("orders")
      .select(["total", "version"])
      .where("order_id", "=", placed.orderId)
      .executeTakeFirstOrThrow();
    assert.equal(typeof row.total, "number");
    assert.equal(row.total, placed.total);
    assert.equal(row.version, 1);
    const { n } = await store.db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(n, 1);
    const { sum } = await store.db
      .selectFrom("orders")
      .select((eb) => eb.fn.sum<number>("version").as("sum"))
      .executeTakeFirstOrThrow();
    assert.equal(sum, 1);
    assert.equal((await services.orders.get(placed.orderId)).total, placed.total);
  });

  it("text sorts byte-wise (upper case before lower, '_' between), so ids and cursors order alike on both", async () => {
    const ids = ["b", "B", "_a", "a-1", "A_1", "Zz", "z"];
    for (const [i, id] of ids.entries())
      await services.customers.create({ firstName: "A", lastName: "B", email: `sort${i}@example.com` }, id);
    const at = "2030-01-01T00:00:00.000Z";
    await store.db.updateTable("customers").set({ created_at: at }).execute();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await services.customers.list({ limit: 2, cursor });
      seen.push(...page.items.map((c) => c.customerId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, [...ids].sort());
  });

  it("projectedByKey reads a projection's fields of one row and the state columns beside it, by name", async () => {
    type Row = {
      customer_id: string;
      first_name: string;
      email: string;
      deleted_at: string | null;
      merged_into: string | null;
    };
    const project = projections<Row, { customerId: string; firstName: string; deletedAt: string | null }>(
      {
        customerId: { column: "customer_id" },
        firstName: { column: "first_name" },
        deletedAt: { column: "deleted_at" },
      },
      ["customerId"],
    );
    const read = projectedByKey<Row, "merged_into" | "deleted_at">(store.db, "customers", "customer_id", [
      "merged_into",
      "deleted_at",
    ]);
    const c = await customer("p");
    assert.equal(await read("nobody", project()), undefined);
    // deleted_at both a field and a state column: read once, given to each
    assert.deepEqual(await read(c.customerId, project()), {
      model: { customerId: c.customerId, firstName: "A", deletedAt: null },
      state: { merged_into: null, deleted_at: null },
    });
    await store.db
      .updateTable("customers")
      .set({ deleted_at: "2030-01-01T00:00:00.000Z" })
      .where("customer_id", "=", c.customerId)
      .execute();
    assert.deepEqual(await read(c.customerId, project(["firstName"])), {
      model: { customerId: c.customerId, firstName: "A" },
      state: { merged_into: null, deleted_at: "2030-01-01T00:00:00.000Z" },
    });
  });

  it("migrations run once: opening the same database again, and three times at once, changes nothing", async () => {
    const again = await Promise.all([openStore(database.url), openStore(database.url), openStore(database.url)]);
    await Promise.all(again.map((s) => s.close()));
    const migrations = (folder: string) =>
      readdirSync(new URL(folder, import.meta.url))
        .filter((f) => /^\d+_\w+\.[jt]s$/.test(f))
        .map((f) => f.replace(/\.[jt]s$/, ""))
        .sort();
    const names = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    const files = migrations("../../src/migrations/");
    assert.ok(files.includes("001_customers") && files.length >= 4);
    assert.deepEqual(
      names.rows.map((r) => r.name),
      files,
    );
    // Twinspec's own (jobs, idempotency keys, rate limits), in their own bookkeeping table, before the application's:
    // every file of its migrations folder, so one missing from migrations/index.ts fails here.
    const own = await sql<{ name: string }>`select name from twinspec_migration order by name`.execute(store.db);
    assert.deepEqual(
      own.rows.map((r) => r.name),
      migrations("../../packages/twinspec/src/store/migrations/"),
    );
    assert.ok(own.rows.length >= 3);
  });

  it("a database whose own migrations made the job, idempotency and rate-limit tables (before Twinspec had its own) keeps them and their rows", async () => {
    // As such a database looks: the tables and their rows there, no record of Twinspec's migrations.
    await store.db
      .insertInto("jobs")
      .values({
        job_id: "job_before",
        kind: "k",
        status: "SUCCEEDED",
        payload: "{}",
        result: null,
        error: null,
        version: 1,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
        lease_until: null,
      })
      .execute();
    await sql`drop table twinspec_migration`.execute(store.db);
    const again = await openStore(database.url);
    try {
      const jobs = await again.db.selectFrom("jobs").select("job_id").execute();
      assert.deepEqual(
        jobs.map((j) => j.job_id),
        ["job_before"],
      );
      const own = await sql<{ name: string }>`select name from twinspec_migration order by name`.execute(again.db);
      assert.ok(own.rows.length >= 3, "Twinspec's migrations are recorded as applied");
    } finally {
      await again.close();
    }
  });

  it("on PostgreSQL, a prepared query is a named statement of its connection (parsed once; one for its rows as objects and as values), other queries are not", async function () {
    if (store.dialect !== "postgres") this.skip();
    const one = await openStore(database.url, { poolMax: 1 });
    try {
      const read = prepared(
        one.db,
        (id: string) => one.db.selectFrom("customers").select("email").where("customer_id", "=", id),
        ["sample"],
      );
      const values = prepared(
        one.db,
        (id: string) => one.db.selectFrom("customers").select("email").where("customer_id", "=", id),
        ["sample"],
        true,
      );
      const { customerId } = await customer(7);
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(await read(customerId), [{ email: "s7@example.com" }]);
        assert.deepEqual(await values(customerId), [["s7@example.com"]]);
      }
      // The same query built per call gets row objects, as Kysely always gives, and is sent unnamed.
      assert.deepEqual(
        await one.db.selectFrom("customers").select("email").where("customer_id", "=", customerId).execute(),
        [{ email: "s7@example.com" }],
      );
      await sql`select 1 as unnamed`.execute(one.db);
      const { rows } = await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by statement`.execute(one.db);
      assert.deepEqual(
        rows.map((r) => r.statement),
        ['select "email" from "customers" where "customer_id" = $1'],
      );
    } finally {
      await one.close();
    }
  });

  it("on PostgreSQL, a query waits for a busy pool's connection at most connectTimeoutMs; the pool then serves the next ones on its connection", async function () {
    if (store.dialect !== "postgres") this.skip();
    const one = await openStore(database.url, { poolMax: 1, connectTimeoutMs: 300 });
    try {
      const pool = one.postgres!.pool;
      const held = await pool.connect();
      const started = performance.now();
      const late = pool.query({ text: "select 1 as n" });
      await assert.rejects(late, /^Error: timeout exceeded when trying to connect$/);
      const waited = performance.now() - started;
      assert.ok(waited >= 250 && waited < 3_000, `waited ${waited} ms`);
      held.release();
      // The one connection, released, serves the next queries: the timeout took nothing from the pool.
      for (let i = 0; i < 3; i++)
        assert.deepEqual((await pool.query({ text: "select $1::int as n", values: [i] })).rows, [{ n: i }]);
      assert.deepEqual([pool.totalCount, pool.idleCount, pool.waitingCount], [1, 1, 0]);
      // Queries beyond the pool's size queue for it and all run when it is free in time.
      const many = await Promise.all(
        Array.from({ length: 5 }, (_, i) => pool.query({ text: "select $1::int as n", values: [i] })),
      );
      assert.deepEqual(
        many.map((r) => r.rows[0].n),
        [0, 1, 2, 3, 4],
      );
    } finally {
      await one.close();
    }
  });

  it("preparedIn reads the rows whose column is among the ids, for any number of ids; on PostgreSQL as one statement with one array parameter", async () => {
    const one = await openStore(database.url, { poolMax: 1 });
    try {
      const emails = preparedIn(one.db, (among, columns: ("customer_id" | "email")[]) =>
        one.db.selectFrom("customers").select(columns).where(among("customer_id")).orderBy("email"),
      );
      const values = preparedInRaw(one.db, (among) =>
        one.db.selectFrom("customers").select("email").where(among("customer_id")).orderBy("email"),
      );
      const ids = [];
      for (let n = 1; n <= 3; n++) ids.push((await customer(n)).customerId);
      assert.deepEqual(await emails([ids[0]], ["email"], "email"), [{ email: "s1@example.com" }]);
      assert.deepEqual(await emails([ids[2], "nobody", ids[0]], ["email"], "email"), [
        { email: "s1@example.com" },
        { email: "s3@example.com" },
      ]);
      assert.deepEqual(
        await emails(ids, ["customer_id", "email"], "both"),
        ids.map((customerId, i) => ({ customer_id: customerId, email: `s${i + 1}@example.com` })),
      );
      assert.deepEqual(await values([ids[1], ids[0]], undefined, ""), [["s1@example.com"], ["s2@example.com"]]);
      // An id with quotes, commas or braces is one value, not array syntax.
      assert.deepEqual(await emails(['a","b', "{c}", ids[1]], ["email"], "email"), [{ email: "s2@example.com" }]);
      if (store.dialect === "postgres") {
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements order by statement`.execute(one.db);
        assert.deepEqual(
          rows.map((r) => r.statement),
          [
            'select "customer_id", "email" from "customers" where "customer_id" = any($1) order by "email"',
            'select "email" from "customers" where "customer_id" = any($1) order by "email"',
          ],
        );
      }
    } finally {
      await one.close();
    }
  });
});
