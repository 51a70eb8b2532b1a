// keysetPager over a base query that joins its parent's table: a qualified id column ("children.child_id")
// qualifies created_at too, so the two tables' created_at never make the order or the cursor ambiguous.
// projectedPager: one keyset pager per projection, each reading only its columns (and created_at, for the cursor).
import assert from "node:assert/strict";
import type { Kysely } from "kysely";
import { keysetPager, projectedPager } from "../../src/domain/pagination.js";
import { projections } from "../../src/domain/projection.js";
import { openStore, type Store } from "../../src/store/database.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

interface Tables {
  parents: { parent_id: string; created_at: string; deleted_at: string | null };
  children: { child_id: string; parent_id: string; created_at: string };
}

interface Child {
  childId: string;
  parentId: string;
  createdAt: string;
}

describe("keysetPager over a join", () => {
  let database: TestDatabase;
  let store: Store;
  let db: Kysely<Tables>;
  const statements: string[] = [];
  before(async () => {
    database = await freshDatabase();
    store = await openStore(database.url, { onQuery: (event) => statements.push(event.query.sql) });
    db = store.db as unknown as Kysely<Tables>;
    await db.schema
      .createTable("parents")
      .addColumn("parent_id", "text", (c) => c.primaryKey())
      .addColumn("created_at", "text")
      .addColumn("deleted_at", "text")
      .execute();
    await db.schema
      .createTable("children")
      .addColumn("child_id", "text", (c) => c.primaryKey())
      .addColumn("parent_id", "text")
      .addColumn("created_at", "text")
      .execute();
    await db
      .insertInto("parents")
      .values([{ parent_id: "p1", created_at: "2026-01-09T00:00:00.000Z", deleted_at: null }])
      .execute();
    const children = ["c1", "c2", "c3", "c4", "c5"].map((id, i) => ({
      child_id: id,
      parent_id: "p1",
      created_at: `2026-01-0${1 + Math.floor(i / 2)}T00:00:00.000Z`,
    }));
    await db.insertInto("children").values(children).execute();
  });
  after(async () => {
    await store?.close();
    await database?.drop();
  });

  it("pages the children of a live parent in (created_at, id) order, cursor after cursor", async () => {
    const base = (parentId: string) =>
      db
        .selectFrom("children")
        .innerJoin("parents", "parents.parent_id", "children.parent_id")
        .selectAll("children")
        .where("children.parent_id", "=", parentId)
        .where("parents.deleted_at", "is", null);
    const page = keysetPager(
      db,
      base,
      ["p"],
      "children.child_id",
      (r) => r.child_id,
      (r) => r.child_id,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const got = await page({ limit: 2, cursor }, "p1");
      seen.push(...got.items);
      cursor = got.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(seen, ["c1", "c2", "c3", "c4", "c5"]);
  });

  it("projectedPager reads each projection's columns only, and pages them as keysetPager does", async () => {
    const projection = projections<Tables["children"], Child>(
      { childId: { column: "child_id" }, parentId: { column: "parent_id" }, createdAt: { column: "created_at" } },
      ["childId"],
    );
    const base = (columns: string[]) => () => db.selectFrom("children").select(columns as (keyof Tables["children"])[]);
    const page = projectedPager(db, base, [], "child_id", (r) => r.child_id);
    statements.length = 0;
    const ids = await page(projection(["childId"]), { limit: 3 });
    assert.deepEqual(ids.items, [{ childId: "c1" }, { childId: "c2" }, { childId: "c3" }]);
    const rest = await page(projection(["childId"]), { limit: 3, cursor: ids.nextCursor! });
    assert.deepEqual(rest, { items: [{ childId: "c4" }, { childId: "c5" }], nextCursor: null });
    assert.equal(statements.length, 2);
    for (const text of statements) assert.match(text, /^select "child_id", "created_at" from "children"/);
    const whole = await page(projection(), { limit: 1 });
    assert.deepEqual(whole.items, [{ childId: "c1", parentId: "p1", createdAt: "2026-01-01T00:00:00.000Z" }]);
    assert.match(statements[2], /^select "child_id", "parent_id", "created_at" from "children"/);
  });
});
