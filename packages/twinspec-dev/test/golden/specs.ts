// The documents whose generated code is kept under test/golden/<name>/, type-checked by `npm test` (tsconfig
// includes test/) and compared with a fresh generation by test/codegen/golden.test.ts. `npm run golden` rewrites them.
import type { GeneratedFile } from "../../src/codegen/generate-rest.js";
import { generateRest } from "../../src/codegen/generate-rest.js";
import { withCliHeader } from "../../src/codegen/cli.js";

export const GOLDEN = {
  // Real-world documents as shipped in npm packages (see test/fixtures/real-world/README.md).
  petstore: "test/fixtures/real-world/petstore.yaml",
  uspto: "test/fixtures/real-world/uspto.yaml",
  "train-travel": "test/fixtures/real-world/train-travel.yaml",
  // Ours: every feature the generator covers, served by test/rest/generated-runtime.test.ts.
  coverage: "test/fixtures/coverage/coverage.yaml",
  // Ours: multipart/form-data uploads, served by test/http/multipart.test.ts.
  uploads: "test/fixtures/uploads/uploads.yaml",
};

export async function generateGolden(name: keyof typeof GOLDEN): Promise<{ path: string; content: string }[]> {
  const files: GeneratedFile[] = await generateRest(GOLDEN[name], `test/golden/${name}`, "twinspec/runtime");
  return files.map((f) => ({ path: f.path, content: withCliHeader(f) }));
}
