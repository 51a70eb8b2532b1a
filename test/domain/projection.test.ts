// Projections (src/domain/projection.ts): the row → model mappings give the model's fields, in the readers'
// order, from a row object or from its raw values, with the keys always and unknown names ignored.
import assert from "node:assert/strict";
import { projections } from "../../packages/twinspec/src/domain/projection.js";

interface Row {
  id: string;
  first_name: string;
  "odd-column": string;
  count: number;
  tags: string;
}
interface Model {
  modelId: string;
  firstName: string;
  odd: string;
  count: number;
  doubled: number;
  tags: string[];
}

const project = projections<Row, Model>(
  {
    modelId: { column: "id" },
    firstName: { column: "first_name" },
    odd: { column: "odd-column" },
    count: { column: "count" },
    // two fields from one column, one of them read
    doubled: { column: "count", read: (value) => value * 2 },
    tags: { column: "tags", read: (value) => value.split(",") },
  },
  ["modelId"],
);
const row: Row = { id: "m1", first_name: 'A "quoted" name', "odd-column": "x", count: 21, tags: "a,b" };

describe("projections (src/domain/projection.ts)", () => {
  it("maps every field, in the readers' order, from a row and from its values", () => {
    const all = project();
    const expected = {
      modelId: "m1",
      firstName: 'A "quoted" name',
      odd: "x",
      count: 21,
      doubled: 42,
      tags: ["a", "b"],
    };
    assert.deepEqual(all.columns, ["id", "first_name", "odd-column", "count", "tags"]);
    assert.deepEqual(all.map(row), expected);
    assert.deepEqual(Object.keys(all.map(row)), Object.keys(expected));
    assert.deepEqual(all.mapValues(all.columns.map((c) => row[c])), expected);
    assert.equal(Object.getPrototypeOf(all.map(row)), Object.prototype);
  });

  it("maps only the fields asked for, with the keys, ignoring names that are not fields", () => {
    const some = project(["doubled", "nope", "__proto__", "constructor"]);
    assert.deepEqual(some.columns, ["id", "count"]);
    assert.equal(some.key, "id,count");
    assert.deepEqual(some.map(row), { modelId: "m1", doubled: 42 });
    assert.deepEqual(some.mapValues(["m2", 5]), { modelId: "m2", doubled: 10 });
    assert.equal(Object.getPrototypeOf(some.map(row)), Object.prototype);
  });

  it("gives names that come to the same fields the same projection", () => {
    assert.equal(project(["count", "x"]), project(["count", "y", "modelId"]));
    assert.notEqual(project(["count"]), project(["odd"]));
  });

  it("refuses a model field named __proto__ (an object literal would set the prototype)", () => {
    const readers = JSON.parse('{ "__proto__": { "column": "a" } }'); // an own property so named, as a literal cannot make
    assert.throws(() => projections<{ a: string }, Record<string, string>>(readers, []), /__proto__/);
  });
});
