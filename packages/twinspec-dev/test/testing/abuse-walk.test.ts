// The abuse walk names what it breaks: the fixture with an upload added (putPortrait), read by an application
// middleware that a body cut off mid-part crashes (careless-upload.ts), walked in a child mocha — which must fail,
// naming the operation and the attack.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FIXTURE } from "../../../twinspec/test/support/fixture.js";
import { childMocha } from "../support/child-mocha.js";

/** An upload of the fixture's authors, declared as an application would. */
const UPLOAD = `  /authors/{authorId}/portrait:
    parameters:
      - $ref: "#/components/parameters/authorId"
    put:
      operationId: putPortrait
      tags: [authors]
      summary: Upload an author's portrait
      description: "Stores the picture sent as the author's portrait."
      x-unpaired: an upload is REST's alone
      security: [{ bearerAuth: ["authors:write"] }]
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [picture]
              properties:
                picture: { type: string, format: binary, maxLength: 4096 }
            encoding:
              picture: { contentType: image/png }
            example: { picture: "PNG" }
      responses:
        "204": { description: Stored }
${[
  ["400", "BadRequest"],
  ["401", "Unauthorized"],
  ["403", "Forbidden"],
  ["404", "NotFound"],
  ["408", "RequestTimeout"],
  ["413", "ContentTooLarge"],
  ["414", "UriTooLong"],
  ["415", "UnsupportedMediaType"],
  ["429", "TooManyRequests"],
  ["431", "HeadersTooLarge"],
  ["500", "InternalError"],
  ["503", "ServiceUnavailable"],
]
  .map(([status, name]) => `        "${status}": { $ref: "#/components/responses/${name}" }\n`)
  .join("")}
`;

describe("the abuse walk against an unguarded upload", function () {
  this.timeout(120_000);
  const dir = resolve("test", ".tmp", `abuse-${process.pid}`);

  before(() => {
    mkdirSync(dir, { recursive: true });
    for (const entry of ["openapi.yaml", "schema.graphql", "codegen.yml", "package.json", "src"])
      cpSync(join(FIXTURE, entry), join(dir, entry), { recursive: true });
    const spec = readFileSync(join(dir, "openapi.yaml"), "utf8");
    writeFileSync(
      join(dir, "openapi.yaml"),
      spec.replace("  /authors/{authorId}/notes:\n", `${UPLOAD}\n  /authors/{authorId}/notes:\n`),
    );
    const generated = spawnSync(process.execPath, [resolve("bin/twinspec.js"), "generate"], {
      cwd: dir,
      encoding: "utf8",
    });
    assert.equal(generated.status, 0, generated.stdout + generated.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("fails, naming the operation and the attack", () => {
    const child = childMocha({
      file: "test/testing/careless-upload.ts",
      root: dir,
      cwd: dir,
      grep: "putPortrait .*multipart",
      timeout: 90_000,
    });
    const output = child.output;
    assert.notEqual(child.status, 0, output);
    assert.match(output, /\d+ failing/, output);
    assert.match(
      output,
      /putPortrait \(PUT \/authors\/\{authorId\}\/portrait\): a multipart body cut off mid-part/,
      output,
    );
    assert.match(output, /Uncaught .*(unexpected end|Unexpected end)/, output);
  });
});
