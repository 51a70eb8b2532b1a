// Both authorization matrices know admin-only operations and fields: the fixture with createAuthor needing
// `authors:write admin` over REST (`security`) and GraphQL (`@auth`) passes them — another owner's token carries the
// scopes but never `admin` —, and a server that lets every token through fails them, each failure naming the token
// (its subject and scopes) and the request.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

describe("the authorization matrices with admin-only operations and fields", function () {
  this.timeout(240_000);
  const dir = resolve("test", ".tmp", `admin-matrix-${process.pid}`);

  before(() => {
    mkdirSync(dir, { recursive: true });
    for (const entry of ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src"])
      cpSync(join(FIXTURE, entry), join(dir, entry), { recursive: true });
    const rest = readFileSync(join(dir, "openapi.yaml"), "utf8").split("\n");
    const at = rest.findIndex((l) => l.includes("operationId: createAuthor"));
    const security = rest.findIndex((l, i) => i > at && l.includes('security: [{ bearerAuth: ["authors:write"] }]'));
    rest[security] = rest[security].replace('["authors:write"]', '["authors:write", "admin"]');
    writeFileSync(join(dir, "openapi.yaml"), rest.join("\n"));
    const graphql = readFileSync(join(dir, "schema.graphql"), "utf8");
    writeFileSync(
      join(dir, "schema.graphql"),
      graphql.replace(
        'createAuthor(input: CreateAuthorInput!): Author @auth(scopes: ["authors:write"])',
        'createAuthor(input: CreateAuthorInput!): Author @auth(scopes: ["authors:write", "admin"])',
      ),
    );
    const generated = spawnSync(process.execPath, [resolve("bin/twinspec.js"), "generate"], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const matrices = (env: Record<string, string>) =>
    childMocha({ file: "test/testing/admin-matrix.ts", root: dir, cwd: dir, env, grep: "createAuthor" });

  it("pass against the server that enforces them", () => {
    const { status, output } = matrices({});
    assert.equal(status, 0, output);
    assert.match(output, /createAuthor \(POST \/authors, needs authors:write admin/, output);
    assert.match(output, /Mutation\.createAuthor \(needs authors:write admin\)/, output);
  });

  it("fail against a server that refuses nobody, naming the token and the request", () => {
    const { status, output } = matrices({ GRANT_ALL: "1" });
    assert.notEqual(status, 0, output);
    assert.match(
      output,
      /expected 403: createAuthor \(POST \/authors\) with the token of "[^"]+" with scopes "" answered 201/,
      output,
    );
    assert.match(
      output,
      /expected FORBIDDEN: Mutation\.createAuthor with the token of "[^"]+" with scopes "": mutation/,
      output,
    );
    assert.doesNotMatch(output, /at .*(src|dist)\/testing\//, "no stack from inside the kit");
  });
});
