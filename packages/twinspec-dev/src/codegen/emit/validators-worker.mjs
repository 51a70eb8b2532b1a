// Compiles the validators on a worker thread while the main thread runs openapi-typescript (the two largest parts
// of a generation; the validators the longer, 5.6 s of CPU against 3.1 s for a 10 MB document): plain JS so it
// can load the TypeScript generator through tsx by itself.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { compileValidators } = await import("./validators.ts");
parentPort.once("message", ({ doc, operations, file }) => {
  try {
    parentPort.postMessage({ ok: compileValidators(doc, operations, file) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.stack : String(error) });
  }
});
