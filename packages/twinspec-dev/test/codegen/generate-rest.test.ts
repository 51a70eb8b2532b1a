// generateRest on an application's own openapi.yaml (the fixture's): the generated files agree with the spec and each other.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { join, relative } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { Warnings } from "../../src/codegen/load/diagnostics.js";
import { generateRest, type GeneratedFile } from "../../src/codegen/generate-rest.js";
import { METHODS } from "../../src/codegen/model/operations.js";

const SPEC = join(FIXTURE, "openapi.yaml");

describe("generateRest(openapi.yaml)", () => {
  let files: GeneratedFile[];
  const content = (name: string) => {
    const file = files.find((f) => f.path === `generated/${name}`);
    assert.ok(file, `generated/${name} is produced`);
    return file.content;
  };
  /** operationIds read straight from the YAML, independently of collectOperations. */
  const spec = parse(readFileSync(join(FIXTURE, "openapi.yaml"), "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const operationIds = Object.values(spec.paths).flatMap((item) =>
    METHODS.filter((m) => item[m]).map((m) => item[m].operationId),
  );

  const warnings = new Warnings("openapi.yaml");
  before(async () => {
    files = await generateRest(SPEC, "generated", "../src/runtime/index.js", warnings);
  });

  it("the fixture's spec has nothing to warn about", () => assert.deepEqual(warnings.list, []));

  it("produces the four REST files, all sourced from openapi.yaml", () => {
    assert.deepEqual(
      files.map((f) => f.path),
      ["generated/openapi.ts", "generated/rest.ts", "generated/validators.cjs", "generated/validators.d.cts"],
    );
    for (const f of files) assert.equal(f.source, relative(process.cwd(), SPEC));
  });

  it("the spec names an operationId for every operation", () => {
    assert.ok(operationIds.length > 0);
    for (const id of operationIds) assert.equal(typeof id, "string");
  });

  it("declares every operationId of openapi.yaml in RestHandlers, and nothing else", () => {
    const block = /export interface RestHandlers \{\n([\s\S]*?)\n\}/.exec(content("rest.ts"))?.[1] ?? "";
    const declared = [...block.matchAll(/^ {2}(\w+)\(req: /gm)].map((m) => m[1]);
    assert.deepEqual([...declared].sort(), [...(operationIds as string[])].sort());
  });

  it("refers only to validators that validators.cjs exports and validators.d.cts declares", () => {
    const used = new Set([...content("rest.ts").matchAll(/(?<![\w"./])validators\.(\w+)/g)].map((m) => m[1]));
    const exported = new Set([...content("validators.cjs").matchAll(/^exports\.(\w+) = /gm)].map((m) => m[1]));
    const declared = new Set([...content("validators.d.cts").matchAll(/^ {2}(\w+): Validator;$/gm)].map((m) => m[1]));
    assert.ok(used.size > 0);
    for (const name of used) {
      assert.ok(exported.has(name), `${name} is exported by validators.cjs`);
      assert.ok(declared.has(name), `${name} is declared in validators.d.cts`);
    }
    assert.deepEqual([...declared].sort(), [...exported].sort());
  });

  it("the typings import Validator from the runtime module", () => {
    assert.match(content("validators.d.cts"), /^import type \{ Validator \} from "\.\.\/src\/runtime\/index\.js";$/m);
  });

  it("openapi.ts has an operations entry for every operationId", () => {
    const types = content("openapi.ts");
    for (const id of operationIds) assert.match(types, new RegExp(`^ {4}${id}: \\{$`, "m"), `${id} in operations`);
  });
});

describe("generateRest where openapi-typescript cannot type a schema", () => {
  it("types that schema unknown, with a warning naming it, and keeps its validator", async () => {
    const warnings = new Warnings("object-enum.yaml");
    const files = await generateRest("test/fixtures/lenient/object-enum.yaml", "out", "twinspec/runtime", warnings);
    assert.deepEqual(
      warnings.list.map((w) => [w.kind, w.pointer]),
      [["types", "/components/schemas/ProductGroup"]],
    );
    assert.match(files.find((f) => f.path === "out/openapi.ts")!.content, /ProductGroup: unknown;/);
    assert.match(files.find((f) => f.path === "out/validators.cjs")!.content, /"PKW"/);
  });
});

describe("generateRest on documents that point outside themselves", () => {
  it("fetches nothing for examples kept at a URL (externalValue), which generation does not need", async () => {
    const files = await generateRest("test/fixtures/lenient/external-example.yaml", "out", "twinspec/runtime");
    assert.match(files.find((f) => f.path === "out/rest.ts")!.content, /getFeed\(req: GetFeedRequest/);
  });
});
