// The packages' layers, read from their imports with the TypeScript parser (so the import text inside code the
// emitters write is not one), over twinspec's src/ (the runtime) and twinspec-dev's (the generator, the test kit,
// the mock server) as one tree: no file is in an import cycle; the runtime never imports twinspec-dev, and twinspec-dev
// reaches the runtime only through its package exports ("twinspec", "twinspec/internals", …), never a path into it;
// runtime/ (the published REST runtime, `twinspec/runtime`) stands alone; the store knows no domain and no transport,
// the domain no transport; and in codegen/, load/ reads the specs, model/ turns them into what the rest reads,
// check/ and emit/ read the model, and the entry points (codegen/ itself) use them all.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SRC = fileURLToPath(new URL("../src", import.meta.url));
const DEV_SRC = fileURLToPath(new URL("../../twinspec-dev/src", import.meta.url));
const EXPORTS = Object.keys(JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).exports).map(
  (e) => e.replace(/^\./, "twinspec"),
);
const TRANSPORTS = [
  "rest",
  "graphql",
  "http",
  "server",
  "auth",
  "rate-limit",
  "mock",
  "testing",
  "codegen",
  "telemetry",
];
/** What each folder of src/ must not import. */
const NEVER: Record<string, string[]> = { store: ["domain", ...TRANSPORTS], domain: TRANSPORTS };
/** What each folder of codegen/ may import, besides itself. */
const CODEGEN_LAYERS: Record<string, string[]> = {
  load: [],
  model: ["load"],
  check: ["load", "model"],
  emit: ["load", "model"],
  ".": ["load", "model", "check", "emit"],
};

const sources = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mjs)$/.test(f))
    .map((f) => join(dir, f));
const runtimeFiles = sources(SRC);
const devFiles = sources(DEV_SRC);
const files = [...runtimeFiles, ...devFiles];
/** Each file's package specifiers of twinspec and twinspec-dev ("twinspec/internals", "twinspec-dev/testing", …). */
const packageImports = new Map<string, string[]>();

/** Each file's imports of other files of src/ (import, export … from, import(), new URL()). */
function importsOf(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      specifier = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      specifier = node.arguments[0];
    else if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "URL")
      specifier = node.arguments?.[0];
    if (specifier && ts.isStringLiteralLike(specifier) && /^twinspec(-dev)?(\/|$)/.test(specifier.text))
      packageImports.set(file, [...(packageImports.get(file) ?? []), specifier.text]);
    if (specifier && ts.isStringLiteralLike(specifier) && specifier.text.startsWith(".")) {
      const target = resolve(dirname(file), specifier.text);
      const hit = [target, target.replace(/\.js$/, ".ts")].find((t) => files.includes(t));
      if (hit) found.push(hit);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));
const name = (file: string) =>
  file.startsWith(DEV_SRC) ? `twinspec-dev: ${relative(DEV_SRC, file)}` : relative(SRC, file);
const srcOf = (file: string) => (file.startsWith(DEV_SRC) ? DEV_SRC : SRC);
/** The folder of its src/ a file is in ("." for the top level). */
const area = (file: string) =>
  relative(srcOf(file), file).includes("/") ? relative(srcOf(file), file).split("/")[0] : ".";
/** The folder of codegen/ a file is in ("." for its entry points). */
const codegenFolder = (file: string) => relative(join(srcOf(file), "codegen"), dirname(file)) || ".";
const imports = (where: (file: string) => boolean) =>
  files.filter(where).flatMap((f) => graph.get(f)!.map((d) => [f, d] as const));

describe("the package's layout", () => {
  it("no file is in an import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const walk = (file: string) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open")
        return void cycles.push([...path.slice(path.indexOf(file)), file].map(name).join(" → "));
      state.set(file, "open");
      path.push(file);
      graph.get(file)!.forEach(walk);
      path.pop();
      state.set(file, "done");
    };
    files.forEach(walk);
    assert.deepEqual(cycles, []);
  });

  it("the runtime imports nothing of twinspec-dev, which reaches the runtime only through its exports", () => {
    const crossing = imports(() => true).filter(([f, d]) => runtimeFiles.includes(f) !== runtimeFiles.includes(d));
    assert.deepEqual(
      crossing.map(([f, d]) => `${name(f)} → ${name(d)}`),
      [],
    );
    const fromRuntime = runtimeFiles.flatMap((f) =>
      (packageImports.get(f) ?? []).filter((s) => s.startsWith("twinspec-dev")).map((s) => `${name(f)} → ${s}`),
    );
    assert.deepEqual(fromRuntime, []);
    const unexported = devFiles.flatMap((f) =>
      (packageImports.get(f) ?? [])
        .filter((s) => !s.startsWith("twinspec-dev") && !EXPORTS.includes(s))
        .map((s) => `${name(f)} → ${s}`),
    );
    assert.deepEqual(unexported, []);
  });

  it("runtime/, the published REST runtime, imports nothing else of the package", () => {
    const wrong = imports((f) => area(f) === "runtime").filter(([, d]) => area(d) !== "runtime");
    assert.deepEqual(
      wrong.map(([f, d]) => `${name(f)} → ${name(d)}`),
      [],
    );
  });

  it("the store imports no domain and no transport, the domain no transport", () => {
    const wrong = imports((f) => area(f) in NEVER).filter(([f, d]) => NEVER[area(f)].includes(area(d)));
    assert.deepEqual(
      wrong.map(([f, d]) => `${name(f)} → ${name(d)}`),
      [],
    );
  });

  it("codegen/ has no file outside load/, model/, check/, emit/ and the entry points", () => {
    const folders = new Set(files.filter((f) => area(f) === "codegen").map(codegenFolder));
    assert.deepEqual(
      [...folders].filter((f) => !(f in CODEGEN_LAYERS)),
      [],
    );
  });

  it("no folder of codegen/ imports a folder above it", () => {
    const inCodegen = (f: string) => area(f) === "codegen";
    const wrong = imports(inCodegen).filter(
      ([f, d]) =>
        inCodegen(d) &&
        codegenFolder(d) !== codegenFolder(f) &&
        !CODEGEN_LAYERS[codegenFolder(f)].includes(codegenFolder(d)),
    );
    assert.deepEqual(
      wrong.map(([f, d]) => `${name(f)} → ${name(d)}`),
      [],
    );
  });

  it("no file names a resource of the commerce service (the package is generic: its examples are other APIs')", () => {
    // The service's resources, less the two words the package has of its own (jobs: its job queue; notes: init's starter).
    const named =
      /\b(customers?|Customers?|customerId|orders|Orders?|orderId|carts?|Carts?|cartId|OrderNotes?|order_notes)\b/;
    const clientSrc = fileURLToPath(new URL("../../twinspec-client/src", import.meta.url));
    const clientFiles = readdirSync(clientSrc, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(clientSrc, f));
    const naming = [...files, ...clientFiles].flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .flatMap((line, i) => (named.test(line) ? [`${name(f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(naming, []);
  });
});
