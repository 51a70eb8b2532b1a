// The REST side of generation for one OpenAPI document: openapi-typescript's types, our rest.ts, the validators.
// `npm run generate` and `twinspec rest` both come through here.
import { relative } from "node:path";
import { Worker } from "node:worker_threads";
import { createConfig, type Config } from "@redocly/openapi-core";
import openapiTS, { astToString } from "openapi-typescript";
import { Warnings } from "./diagnostics.js";
import { collectOperations, type Operation } from "./operations.js";
import { hoistPathRefs } from "./refs.js";
import { emitRest, type RestEmitOptions } from "./rest-emitter.js";
import { at, loadSpec, replaceAt, type JsonObject } from "./spec.js";
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

/** openapi-typescript lints and bundles again by default; the document is already both (and its lint is ours). */
let noLint: Promise<Config> | undefined;

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
  noLint ??= createConfig({ rules: {} } as never, { extends: [] } as never);
  const redocly = await noLint;
  // openapi-typescript reads the bundled document, so its types and our wiring come from one and the same text.
  const [validators, types] = await Promise.all([
    operations.length > 50 ? compileInWorker(doc, operations, specFile) : compileValidators(doc, operations, specFile),
    typesOf(doc, redocly, warnings),
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

/**
 * openapi-typescript's helper for allOf members whose parent requires some of their properties. It demands that
 * those be keys of the member's type, which a member typed as a union or unknown does not have (plaid.com, linode):
 * such keys are passed over instead.
 */
const WITH_REQUIRED = /^type WithRequired<T, K extends keyof T> = T & \{\n {4}\[P in K\]-\?: T\[P\];\n\};$/m;
const LENIENT_WITH_REQUIRED = "type WithRequired<T, K extends PropertyKey> = T & {\n    [P in K & keyof T]-?: T[P];\n};";

/**
 * openapi-typescript's types. Where it stops at a schema it cannot type ("Expected SchemaObject, received string
 * at #/components/schemas/P/oneOf/0", for an object schema with an enum of strings), that schema is typed
 * unknown, with a warning, and it runs again; the validators were compiled from the document as it was.
 */
async function typesOf(doc: JsonObject, redocly: Config, warnings: Warnings): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      // An object schema without properties means "any object", not "an empty one".
      return astToString(await openapiTS(doc as never, { silent: true, emptyObjectsUnknown: true, redocly })).replace(WITH_REQUIRED, LENIENT_WITH_REQUIRED);
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      const found = /\bat #(\/\S*)/.exec(message);
      if (!found || attempt >= 20) throw error;
      // The deepest member of the document on the way (openapi-typescript may name a place it made up).
      let pointer = found[1];
      while (pointer && at(doc, `#${pointer}`) === undefined) pointer = pointer.slice(0, pointer.lastIndexOf("/"));
      if (!/\/schemas?(\/|$)/.test(pointer) || !replaceAt(doc, pointer, {})) throw error; // only ever a schema
      warnings.add("types", pointer, `openapi-typescript cannot type this (${message.replace(/\s*\bat #\S*/, "")}): typed unknown`);
    }
  }
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
