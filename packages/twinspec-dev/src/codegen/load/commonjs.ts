// TypeScript and openapi-typescript through require, by their CommonJS entry points. Imported from an ES module, a
// CommonJS file is scanned first for its export names and for module syntax, which for TypeScript's 9 MB compiler
// is most of what loading it costs; require compiles it once, and openapi-typescript's CommonJS build (the package's
// own "require" export) requires the same TypeScript.
import { createRequire } from "node:module";

const load = createRequire(import.meta.url);

export const typescript = (): typeof import("typescript") => load("typescript");
export const openapiTypescript = (): typeof import("openapi-typescript") => load("openapi-typescript");
