// The REST side of generation for one OpenAPI document: openapi-typescript's types, our rest.ts, the validators.
// `npm run generate` and `twinspec rest` both come through here.
import { statSync } from "node:fs";
import { relative, sep } from "node:path";
import { Worker } from "node:worker_threads";
import { Warnings } from "./load/diagnostics.js";
import { collectOperations, type Operation } from "./model/operations.js";
import { hoistPathRefs } from "./model/refs.js";
import { restClient } from "./emit/rest-client.js";
import { emitRest, type RestEmitOptions } from "./emit/rest-emitter.js";
import { loadSpec, type JsonObject } from "./load/spec.js";
import { typesOf } from "./emit/openapi-types.js";
import { compileValidators, type CompiledValidators } from "./emit/validators.js";

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
  /**
   * a folder for the typed REST client (rest.ts, the SDK over twinspec-client, and openapi.ts, the types, which the
   * server's openapi.ts then re-exports), if wanted
   */
  client?: string;
  /** a worker already started (see generateRest), for the validators of a document with many operations */
  worker?: ValidatorsWorker;
  /** the document as the caller already parsed it from `specFile` (not modified), so it is not parsed again */
  parsed?: JsonObject;
  /** told each step as it ends (for a large document, whose generation takes seconds) */
  progress?: (step: string) => void;
}

/**
 * @param runtime module specifier the generated rest.ts imports the runtime from: a path relative to `outDir`
 *   ("../src/runtime/index.js") or a package export ("twinspec/runtime")
 */
export async function generateRest(
  specFile: string,
  outDir: string,
  runtime: string,
  warnings = new Warnings(specFile),
  options: RestGenerateOptions = {},
): Promise<GeneratedFile[]> {
  // A large document's validators are compiled on a worker: started now, it boots while the document loads.
  const worker = sizeOf(specFile) > EARLY_WORKER_BYTES ? validatorsWorker() : undefined;
  try {
    const doc = await loadSpec(specFile, warnings, { parsed: options.parsed });
    options.progress?.(`read, linted and bundled ${specFile}`);
    return await generateRestFromDocument(doc, specFile, outDir, runtime, warnings, { ...options, worker });
  } finally {
    void worker?.worker.terminate(); // unused when the document has few operations
  }
}

/** Documents from this size on have more than 50 operations, as a rule (and a worker takes ~0.5 s to start). */
const EARLY_WORKER_BYTES = 1e6;

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // loadSpec says what is wrong
  }
}

/**
 * The same for a document already loaded and bundled (by loadSpec). Lint-level defects and degraded constructs
 * are added to `warnings`; the document is normalized in place where our wiring and the types must agree.
 */
async function generateRestFromDocument(
  doc: JsonObject,
  specFile: string,
  outDir: string,
  runtime: string,
  warnings = new Warnings(specFile),
  options: RestGenerateOptions = {},
): Promise<GeneratedFile[]> {
  hoistPathRefs(doc, warnings);
  const operations = collectOperations(doc, specFile, warnings);
  options.progress?.(
    `${operations.length} operations: openapi-typescript's types and the validators${operations.length > 50 ? " (on a second thread)" : ""}`,
  );
  // openapi-typescript reads the bundled document, so its types and our wiring come from one and the same text.
  const [validators, types] = await Promise.all([
    (operations.length > 50
      ? compileInWorker(doc, operations, specFile, options.worker)
      : Promise.resolve(compileValidators(doc, operations, specFile))
    ).then((v) => {
      options.progress?.(`${v.names.length} validators compiled`);
      return v;
    }),
    (async () => {
      const text = typesOf(doc, warnings);
      options.progress?.(`openapi-typescript's types written (${(text.length / 1e6).toFixed(1)} MB)`);
      return text;
    })(), // a failure is Promise.all's, which then hears the worker's too
  ]);
  warnings.addAll(validators.warnings);
  const source = relative(process.cwd(), specFile);
  options.onValidators?.(validators.byOperation);
  options.progress?.("writing rest.ts and the client");
  const rest = emitRest(operations, validators.byOperation, {
    runtime,
    types: "./openapi.js",
    validators: "./validators.cjs",
    context: options.context,
  });
  const names = validators.names.map((n) => `  ${n}: Validator;`).join("\n");
  return [
    { path: `${outDir}/openapi.ts`, content: options.client ? typesOfClient(outDir, options.client) : types, source },
    { path: `${outDir}/rest.ts`, content: rest, source },
    { path: `${outDir}/validators.cjs`, content: validators.source, source },
    {
      path: `${outDir}/validators.d.cts`,
      content: `import type { Validator } from ${JSON.stringify(runtime)};\ndeclare const validators: {\n${names}\n};\nexport = validators;\n`,
      source,
    },
    ...(options.client
      ? [
          { path: `${options.client}/openapi.ts`, content: types, source },
          { path: `${options.client}/rest.ts`, content: restClient(doc, operations, specFile), source },
        ]
      : []),
  ];
}

/**
 * The server's openapi.ts when there is a client folder: the types are written once, in the client's openapi.ts (the
 * client package is packed and installed on its own, so its types are in it), and the server's module re-exports
 * them, as types only (nothing of it is loaded at run time).
 */
function typesOfClient(outDir: string, client: string): string {
  const from = relative(outDir, `${client}/openapi.js`).split(sep).join("/");
  return `/** openapi-typescript's types of the spec, written once in the client package: ${from.replace(/^(\.\.\/)+/, "")}. */
export type * from ${JSON.stringify(from.startsWith(".") ? from : `./${from}`)};
`;
}

export interface ValidatorsWorker {
  worker: Worker;
  /** rejects when the thread fails or stops (also once terminated: the answer is in by then) */
  stopped: Promise<never>;
}

/** A thread for compileInWorker, started ahead of time; its failures are heard from the start. */
function validatorsWorker(): ValidatorsWorker {
  const worker = new Worker(new URL("./emit/validators-worker.mjs", import.meta.url));
  const stopped = new Promise<never>((_, reject) => {
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the validators' thread stopped (exit code ${code})`)));
  });
  stopped.catch(() => {}); // a thread left unused ends unheard
  return { worker, stopped };
}

/** The validators on another thread (see validators-worker.mjs); small documents are not worth the thread's start. */
export function compileInWorker(
  doc: JsonObject,
  operations: Operation[],
  file = "",
  { worker, stopped } = validatorsWorker(),
): Promise<CompiledValidators> {
  worker.postMessage({ doc, operations, file });
  const answer = new Promise<CompiledValidators>((resolve, reject) => {
    worker.once("message", (reply: { ok?: CompiledValidators; error?: string }) =>
      reply.ok ? resolve(reply.ok) : reject(new Error(reply.error)),
    );
  });
  return Promise.race([answer, stopped]).finally(() => worker.terminate());
}
