// The OpenTelemetry SDK is an optional peer dependency of twinspec: a deployed application without an OTLP endpoint
// does not install it, and one with an endpoint but without the packages stops at start with one line saying what to
// install. (test/scripts/production-install.test.ts at the repository's root starts such an install for real.)
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadTracing, TracingNotInstalledError, tracingInstallLine } from "../../src/telemetry/load.js";

const PKG = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")) as Record<string, Record<string, unknown>>;
const otel = (deps: Record<string, unknown> = {}) =>
  Object.keys(deps)
    .filter((name) => name.startsWith("@opentelemetry/"))
    .sort();

/** An import failing as Node's does when a package is not installed. */
function notFound(name: string) {
  return () =>
    Promise.reject(
      Object.assign(new Error(`Cannot find package '${name}' imported from ${PKG}dist/telemetry/tracing.js`), {
        code: "ERR_MODULE_NOT_FOUND",
      }),
    );
}

describe("tracing's OpenTelemetry packages: optional peers, loaded on demand", () => {
  it("a missing package stops the start with one line holding the exact npm install of every peer", async () => {
    const peers = manifest.peerDependencies as Record<string, string>;
    const line = `npm install ${otel(peers)
      .map((name) => `${name}@${peers[name]}`)
      .join(" ")}`;
    assert.equal(tracingInstallLine(), line);
    const error = await loadTracing(notFound("@opentelemetry/sdk-trace-base")).then(
      () => assert.fail("loaded"),
      (e: Error) => e,
    );
    assert.ok(error instanceof TracingNotInstalledError);
    assert.doesNotMatch(error.message, /\n/);
    assert.match(error.message, /^tracing is on \(an OTLP endpoint is set: OTEL_EXPORTER_OTLP_ENDPOINT/);
    assert.match(error.message, /@opentelemetry\/sdk-trace-base is not installed/);
    assert.ok(error.message.includes(`run \`${line}\``), error.message);
  });

  it("the README, the package's README and docs/operations.md give that same install line", () => {
    for (const doc of ["../../README.md", "README.md", "../../docs/operations.md"]) {
      assert.ok(
        readFileSync(join(PKG, doc), "utf8").includes(tracingInstallLine()),
        `${doc} has \`${tracingInstallLine()}\``,
      );
    }
  });

  it("recognises Node's own error for a package that is not there", async () => {
    const absent: string = "@opentelemetry/not-installed-here";
    const error = await loadTracing(() => import(absent)).then(
      () => assert.fail("loaded"),
      (e: Error) => e,
    );
    assert.ok(error instanceof TracingNotInstalledError, String(error));
    assert.match(error.message, /@opentelemetry\/not-installed-here is not installed/);
  });

  it("any other failure is thrown as it came; with the packages installed, tracing.ts loads", async () => {
    const broken = new SyntaxError("Unexpected token");
    await assert.rejects(
      loadTracing(() => Promise.reject(broken)),
      (e) => e === broken,
    );
    const other = Object.assign(new Error("Cannot find package 'left-pad' imported from x.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    await assert.rejects(
      loadTracing(() => Promise.reject(other)),
      (e) => e === other,
    );
    assert.equal(typeof (await loadTracing()).startTracing, "function");
  });

  it("every OpenTelemetry package is an optional peer and a devDependency (what the tests run), none a dependency", () => {
    const peers = otel(manifest.peerDependencies);
    assert.ok(peers.length >= 7, peers.join(" "));
    assert.deepEqual(otel(manifest.dependencies), []);
    assert.deepEqual(otel(manifest.devDependencies), peers);
    for (const name of peers)
      assert.deepEqual((manifest.peerDependenciesMeta as Record<string, unknown>)[name], { optional: true }, name);
    const imported = new Set(
      [...readFileSync(join(PKG, "src/telemetry/tracing.ts"), "utf8").matchAll(/from "(@opentelemetry\/[^"]+)"/g)].map(
        (m) => m[1],
      ),
    );
    for (const name of imported) assert.ok(peers.includes(name), `${name}, imported by tracing.ts, is a peer`);
  });

  it("nothing but tracing.ts imports OpenTelemetry at run time (type imports are erased)", () => {
    const src = join(PKG, "src");
    const offenders: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!/\.[mc]?ts$/.test(file) || file === join("telemetry", "tracing.ts")) continue;
      const text = readFileSync(join(src, file), "utf8");
      for (const m of text.matchAll(/^\s*(import|export)\b(?!\s+type\b)[^;]*?["'](@opentelemetry\/[^"']+)["']/gm))
        offenders.push(`${file}: ${m[2]}`);
      for (const m of text.matchAll(/\b(?:import|require)\(\s*["'](@opentelemetry\/[^"']+)["']/g))
        offenders.push(`${file}: ${m[1]}`);
    }
    assert.deepEqual(offenders, []);
  });
});
