// The GraphQL side of generation: graphql-codegen with codegen.yml, in memory. The client preset's persisted
// documents (id → text) are also written as a module the server imports: its manifest, and its safelist in
// persisted-only mode.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { pluginLoader, runCodegen, type CodegenConfig } from "./emit/graphql-codegen.js";
import type { GeneratedFile } from "./generate-rest.js";

const PERSISTED_MODULE = "generated/persisted-documents.ts";

/**
 * `mappers` are set on every output that generates resolvers (each resource type → its domain model); `schema`, when
 * given, is the SDL generated from in place of codegen.yml's schema file (that file with the Twinspec parts' SDL after it).
 */
export async function generateGraphql(
  configFile: string,
  { mappers = {}, schema }: { mappers?: Record<string, string>; schema?: string } = {},
): Promise<GeneratedFile[]> {
  const config = parse(readFileSync(configFile, "utf8")) as CodegenConfig;
  const source = `${config.schema} + ${config.documents}`;
  if (schema !== undefined) config.schema = schema;
  // Until client/operations/ holds a document, the client preset writes the schema's types and an empty manifest.
  config.ignoreNoDocuments = true;
  for (const output of Object.values(config.generates ?? {}) as {
    plugins?: string[];
    preset?: unknown;
    config?: Record<string, unknown>;
  }[]) {
    // A preset by name is looked up from the working directory only: `twinspec init` runs before any install.
    if (output.preset === "client")
      output.preset = ((await pluginLoader("@graphql-codegen/client-preset")) as { preset: unknown }).preset;
    if (output.plugins?.includes("typescript-resolvers"))
      output.config = { ...output.config, mappers: { ...mappers, ...(output.config?.mappers as object) } };
  }
  const outputs = await runCodegen(config);
  const files = outputs.map((o) => ({ path: o.filename, content: o.content, source }));
  const manifest = files.find((f) => f.path.endsWith("/persisted-documents.json"));
  files.push({
    path: PERSISTED_MODULE,
    content: persistedModule(manifest ? JSON.parse(manifest.content) : {}),
    source,
  });
  return files;
}

function persistedModule(documents: Record<string, string>): string {
  return [
    "/** The client preset's persisted documents: id (`sha256:` + the hex SHA-256 of the text) → document text. */",
    `export const persistedDocuments: Readonly<Record<string, string>> = ${JSON.stringify(documents, null, 2)};`,
    "",
  ].join("\n");
}
