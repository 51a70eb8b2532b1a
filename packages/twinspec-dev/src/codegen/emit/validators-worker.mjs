// Compiles the validators on a worker thread while the main thread runs openapi-typescript (the two largest parts
// of a generation for a large document). Plain JavaScript, so that it starts alike from src/ (where it loads the
// TypeScript generator through tsx by itself), from dist/ and from a checkout's bundled CLI (compiled siblings).
import { existsSync } from "node:fs";
import { parentPort } from "node:worker_threads";

if (existsSync(new URL("./validators.ts", import.meta.url))) (await import("tsx/esm/api")).register();
const { compileValidators } = await import("./validators.js");
parentPort.once("message", ({ doc, operations, file }) => {
  try {
    parentPort.postMessage({ ok: compileValidators(doc, operations, file) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.stack : String(error) });
  }
});
