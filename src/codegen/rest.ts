// The REST side of generation for one OpenAPI document: openapi-typescript's types, our rest.ts, the validators.
import { relative } from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { collectOperations } from "./operations.js";
import { emitRest } from "./rest-emitter.js";
import { loadDocument } from "./spec.js";
import { compileValidators } from "./validators.js";

export interface GeneratedFile {
  path: string;
  content: string;
  source: string;
}

export async function generateRest(specFile: string, outDir: string, runtime: string): Promise<GeneratedFile[]> {
  const doc = loadDocument(specFile);
  const operations = collectOperations(doc, specFile);
  const validators = compileValidators(doc, operations);
  const types = astToString(await openapiTS(pathToFileURL(specFile)));
  const source = relative(process.cwd(), specFile);
  const rest = emitRest(operations, validators.names, { runtime, types: "./openapi.js", validators: "./validators.cjs" });
  const names = validators.names.map((n) => `  ${n}: Validator;`).join("\n");
  return [
    { path: `${outDir}/openapi.ts`, content: types, source },
    { path: `${outDir}/rest.ts`, content: rest, source },
    { path: `${outDir}/validators.cjs`, content: validators.source, source },
    {
      path: `${outDir}/validators.d.cts`,
      content: `import type { Validator } from ${JSON.stringify(runtime.replace(/rest-runtime\.js$/, "validation.js"))};\ndeclare const validators: {\n${names}\n};\nexport = validators;\n`,
      source,
    },
  ];
}
