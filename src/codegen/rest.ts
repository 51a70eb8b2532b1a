// The REST side of generation for one OpenAPI document: openapi-typescript's types, our rest.ts, the validators.
// `npm run generate` and `twinspec rest` both come through here.
import { relative } from "node:path";
import { Worker } from "node:worker_threads";
import { Warnings } from "./diagnostics.js";
import { collectOperations, type Operation } from "./operations.js";
import { hoistPathRefs } from "./refs.js";
import { emitRest, type RestEmitOptions } from "./rest-emitter.js";
import { loadSpec, type JsonObject } from "./spec.js";
import { typesOf } from "./types.js";
import { compileValidators, type CompiledValidators } from "./validators.js";

export interface GeneratedFile {
  path: string;
  content: string;
  source: string;
}

export interface RestGenerateOptions {
  /** the type handlers receive as `ctx` (default: the runtime's RequestContext) */
  context?: RestEmitOptions["context"];
  /** receives the validator names of every operation (the project's generate shares them with GraphQL inputs) */
  onValidators?: (byOperation: CompiledValidators["byOperation"]) => void;
}

/**
 * @param runtime module specifier the generated rest.ts imports the runtime from: a path relative to `outDir`
 *   ("../src/http/rest-runtime.js") or a package export ("twinspec/runtime")
 */
export async function generateRest(specFile: string, outDir: string, runtime: string, warnings = new Warnings(specFile), options: RestGenerateOptions = {}): Promise<GeneratedFile[]> {
  const doc = await loadSpec(specFile, warnings);
  return generateRestFromDocument(doc, specFile, outDir, runtime, warnings, options);
}

/**
 * The same for a document already loaded and bundled (by loadSpec). Lint-level defects and degraded constructs
 * are added to `warnings`; the document is normalized in place where our wiring and the types must agree.
 */
export async function generateRestFromDocument(
  doc: JsonObject,
  specFile: string,
  outDir: string,
  runtime: string,
  warnings = new Warnings(specFile),
  options: RestGenerateOptions = {},
): Promise<GeneratedFile[]> {
  hoistPathRefs(doc, warnings);
  const operations = collectOperations(doc, specFile, warnings);
  // openapi-typescript reads the bundled document, so its types and our wiring come from one and the same text.
  const [validators, types] = await Promise.all([
    operations.length > 50 ? compileInWorker(doc, operations, specFile) : compileValidators(doc, operations, specFile),
    typesOf(doc, warnings),
  ]);
  warnings.addAll(validators.warnings);
  const source = relative(process.cwd(), specFile);
  options.onValidators?.(validators.byOperation);
  const rest = emitRest(operations, validators.byOperation, { runtime, types: "./openapi.js", validators: "./validators.cjs", context: options.context });
  const names = validators.names.map((n) => `  ${n}: Validator;`).join("\n");
  return [
    { path: `${outDir}/openapi.ts`, content: types, source },
    { path: `${outDir}/rest.ts`, content: rest, source },
    { path: `${outDir}/validators.cjs`, content: validators.source, source },
    {
      path: `${outDir}/validators.d.cts`,
      content: `import type { Validator } from ${JSON.stringify(runtime)};\ndeclare const validators: {\n${names}\n};\nexport = validators;\n`,
      source,
    },
  ];
}

/** The validators on another thread (see validators-worker.mjs); small documents are not worth the thread's start. */
export function compileInWorker(doc: JsonObject, operations: Operation[], file = ""): Promise<CompiledValidators> {
  const worker = new Worker(new URL("./validators-worker.mjs", import.meta.url));
  worker.postMessage({ doc, operations, file });
  return new Promise<CompiledValidators>((resolve, reject) => {
    worker.once("message", (reply: { ok?: CompiledValidators; error?: string }) => (reply.ok ? resolve(reply.ok) : reject(new Error(reply.error))));
    worker.once("error", reject);
  }).finally(() => worker.terminate());
}
