// The Node versions the README names are the ones every installed package accepts: `engines` says one range (the
// root's, the twinspec package's and the one `init` writes), and no package in node_modules refuses the first
// release of any line in it, so `npm ci` warns of no engine there. npm's own semver decides (`npm query`).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { packageJson } from "../../packages/twinspec-dev/src/codegen/init.js";

const json = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const root = json("package.json");
const range: string = root.engines.node;

/** The first release of each line of a range written as `^20.19.0 || ^22.13.0 || >=24`. */
const floors = (r: string) =>
  r.split("||").map((part) => {
    const m = /^\s*(?:\^|>=)\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(part);
    assert.ok(m, `engines.node part "${part}" is ^X.Y.Z or >=X`);
    return `${m[1]}.${m[2] ?? 0}.${m[3] ?? 0}`;
  });

describe("Node versions (engines)", function () {
  this.timeout(60_000);

  it("one range: the root's, every package's, what init writes, the README's", () => {
    for (const name of ["twinspec", "twinspec-dev", "create-twinspec"])
      assert.equal(json(`packages/${name}/package.json`).engines.node, range, name);
    const app = JSON.parse(packageJson("my-service", "^0.1.0", "^0.1.0"));
    assert.equal(app.engines.node, range);
    assert.ok(readFileSync("README.md", "utf8").includes(`Node \`${range}\``), "README.md names the range");
  });

  it("an application made by init has the root's overrides, so it installs the same Node 20 releases", () => {
    assert.deepEqual(JSON.parse(packageJson("my-service", "^0.1.0", "^0.1.0")).overrides, root.overrides);
  });

  it("no installed package refuses the first release of any line in the range", () => {
    const each = floors(range);
    assert.deepEqual(each, ["20.19.0", "22.13.0", "24.0.0"]);
    const selector = each
      .map((v) => `:has(:attr(engines, [node])):not(:semver(${v}, :attr(engines, [node])))`)
      .join(", ");
    const refusing = (
      JSON.parse(execFileSync("npm", ["query", selector], { encoding: "utf8" })) as {
        name: string;
        version: string;
        engines: { node: string };
      }[]
    ).map((p) => `${p.name}@${p.version} wants node ${p.engines.node}`);
    assert.deepEqual([...new Set(refusing)], []);
  });
});
