// Batch reads of children by parent (liveRowsByParent) read text columns as JSON arrays and everything else row by
// row; either way the rows, their values and their order are what the table holds (this file runs on both databases).
import assert from "node:assert/strict";
import { sql, type Kysely } from "kysely";
import { liveRowsByParent } from "../../packages/twinspec/src/domain/batch.js";
import { projections } from "../../packages/twinspec/src/domain/projection.js";
import { openStore, type Store } from "../../packages/twinspec/src/store/database.js";
import { freshDatabase, testDatabaseKind, type TestDatabase } from "../support/database.js";

interface ThingRow {
  thing_id: string;
  parent_id: string;
  label: string | null;
  amount: number;
  n: number;
  created_at: string;
  deleted_at: string | null;
}
interface Thing {
  thingId: string;
  parentId: string;
  label: string | null;
  amount: number;
  n: number;
}

const projection = projections<ThingRow, Thing>(
  {
    thingId: { column: "thing_id" },
    parentId: { column: "parent_id" },
    label: { column: "label" },
    amount: { column: "amount" },
    n: { column: "n" },
  },
  ["thingId", "parentId"],
);

// Text JSON must escape, and numbers JSON would round (SQLite writes 15 digits of a REAL).
const LABELS = [null, 'say "hi"', "back\\slash", "line\nbreak", "日本語 \u2028 🙂", "", "[1,2]", "{}", "null"];
const AMOUNTS = [0.1 + 0.2, 1 / 3, 2 ** 53, -0.5, 1e-7];

describe(`batch reads by parent on ${testDatabaseKind()}`, function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: Store;
  let expected: Map<string, Thing[]>;
  before(async () => {
    database = await freshDatabase();
    store = await openStore(database.url);
    await sql`create table things (thing_id text primary key, parent_id text not null, label text, amount double precision not null, n integer not null, created_at text not null, deleted_at text)`.execute(
      store.db,
    );
    expected = new Map([
      ["p1", []],
      ["p2", []],
      ["p3", []],
    ]);
    // Inserted out of order: the read orders them by parent, then created_at, then id.
    const rows: ThingRow[] = [];
    for (let i = 0; i < 30; i++) {
      const parent = `p${1 + ((i * 7) % 3)}`;
      rows.push({
        thing_id: `t${String(29 - i).padStart(2, "0")}`,
        parent_id: parent,
        label: LABELS[i % LABELS.length],
        amount: AMOUNTS[i % AMOUNTS.length] * (i + 1),
        n: i - 10,
        created_at: `2026-01-01T00:00:${String(i % 4).padStart(2, "0")}Z`,
        deleted_at: i % 10 === 9 ? "2026-02-01T00:00:00Z" : null,
      });
    }
    await (store.db as unknown as Kysely<{ things: ThingRow }>).insertInto("things").values(rows).execute();
    const live = rows
      .filter((r) => r.deleted_at === null)
      .sort((a, b) => (a.parent_id + a.created_at + a.thing_id < b.parent_id + b.created_at + b.thing_id ? -1 : 1));
    for (const r of live)
      expected
        .get(r.parent_id)!
        .push({ thingId: r.thing_id, parentId: r.parent_id, label: r.label, amount: r.amount, n: r.n });
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  const only = <K extends keyof Thing>(things: Map<string, Thing[]>, fields: K[]) =>
    new Map(
      [...things].map(([parent, list]) => [
        parent,
        list.map((t) => Object.fromEntries(["thingId", "parentId", ...fields].map((f) => [f, t[f as K]]))),
      ]),
    );

  it("text columns: every value, escaped or not, and null, in the rows' order, each parent asked for (none for an unknown one)", async () => {
    const read = liveRowsByParent(store.db, "things", "parent_id", "thing_id", projection);
    const want = only(expected, ["label"]);
    want.set("nobody", []);
    assert.deepEqual(await read(["p1", "p2", "p3", "nobody"], ["label"]), want);
    assert.deepEqual(await read(["p2"], ["label"]), new Map([["p2", want.get("p2")]]));
    assert.deepEqual(await read([], ["label"]), new Map());
    if (store.dialect === "postgres") {
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(store.db);
      assert.ok(
        rows.some((r) => r.statement.includes("json_agg")),
        "a text projection is read as JSON arrays",
      );
    }
  });

  it("numbers JSON would round are read row by row, exactly as stored", async () => {
    const read = liveRowsByParent(store.db, "things", "parent_id", "thing_id", projection);
    assert.deepEqual(
      await read(["p3", "p1"], ["amount", "n", "label"]),
      new Map([
        ["p3", only(expected, ["amount", "n", "label"]).get("p3")],
        ["p1", only(expected, ["amount", "n", "label"]).get("p1")],
      ]),
    );
    const amounts = (await read(["p1", "p2", "p3"], ["amount"])).get("p1")!.map((t) => t.amount);
    assert.ok(amounts.includes(0.1 + 0.2), "0.30000000000000004 stays itself");
  });

  it("reads on a transaction see its own writes", async () => {
    await (store.db as unknown as Kysely<{ things: ThingRow }>).transaction().execute(async (tx) => {
      await tx
        .insertInto("things")
        .values({
          thing_id: "t99",
          parent_id: "p9",
          label: "fresh",
          amount: 1,
          n: 1,
          created_at: "2026-03-01T00:00:00Z",
          deleted_at: null,
        })
        .execute();
      const read = liveRowsByParent(tx, "things", "parent_id", "thing_id", projection);
      assert.deepEqual(
        await read(["p9"], ["label"]),
        new Map([["p9", [{ thingId: "t99", parentId: "p9", label: "fresh" }]]]),
      );
    });
  });
});
