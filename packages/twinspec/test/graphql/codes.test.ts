// GRAPHQL_CODES is what generated clients type `extensions.code` with (client/generated/index.ts's ErrorCode): every
// code the server's sources can put in a GraphQL error must be in it.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GRAPHQL_CODES } from "../../src/error-table.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? ["codegen", "store", "testing"].includes(e.name)
        ? []
        : sources(join(dir, e.name))
      : e.name.endsWith(".ts")
        ? [join(dir, e.name)]
        : [],
  );

describe("GRAPHQL_CODES", () => {
  it("holds every extensions.code the server's sources answer with", () => {
    const found = new Set<string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const [, code] of text.matchAll(/\bcode: "([A-Z][A-Z_]+)"/g)) found.add(code);
      for (const [, code] of text.matchAll(/\brefusal\("([A-Z][A-Z_]+)"/g)) found.add(code);
    }
    assert.ok(found.size >= 15, `${found.size} codes found: the patterns still match the sources`);
    assert.deepEqual(
      [...found].filter((c) => !(GRAPHQL_CODES as readonly string[]).includes(c)),
      [],
    );
  });
});
