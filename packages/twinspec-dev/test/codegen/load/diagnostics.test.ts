// diagnostics: warnings kept once, printed one line each, grouped by kind when there are many.
import assert from "node:assert/strict";
import { formatWarning, Warnings, warningLines } from "../../../src/codegen/load/diagnostics.js";

describe("Warnings", () => {
  it("keeps the same message at the same pointer once, in order", () => {
    const w = new Warnings("a.yaml");
    w.add("lint", "/x", "m");
    w.add("lint", "/x", "m");
    w.add("pattern", "/x", "other");
    w.addAll([
      { kind: "lint", pointer: "/x", message: "m" },
      { kind: "lint", pointer: "/y", message: "m" },
    ]);
    assert.deepEqual(
      w.list.map((x) => `${x.kind} ${x.pointer} ${x.message}`),
      ["lint /x m", "pattern /x other", "lint /y m"],
    );
  });

  it("formats one line: file#pointer: warning: message", () => {
    assert.equal(
      formatWarning("api.yaml", { kind: "lint", pointer: "/paths/~1a", message: "m" }),
      "api.yaml#/paths/~1a: warning: m",
    );
  });
});

describe("warningLines", () => {
  const many = (kind: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ kind, pointer: `/${kind}/${i}`, message: "m" }));
  const cases: [string, ReturnType<typeof many>, { all?: boolean }, number, string[]][] = [
    ["up to 20 warnings: all of them", many("lint", 20), {}, 20, []],
    [
      "more: five of each kind and a line saying how many more",
      [...many("lint", 30), ...many("ref", 3)],
      {},
      9,
      ['a.yaml: warning: … 25 more "lint" warnings (--verbose lists them all)'],
    ],
    ["--verbose: all of them", many("lint", 30), { all: true }, 30, []],
  ];
  for (const [name, warnings, options, count, summaries] of cases) {
    it(name, () => {
      const lines = warningLines("a.yaml", warnings, options);
      assert.equal(lines.length, count);
      for (const s of summaries) assert.ok(lines.includes(s), lines.join("\n"));
      for (const line of lines) assert.match(line, /^a\.yaml(#\S*)?: warning: /);
    });
  }
});
