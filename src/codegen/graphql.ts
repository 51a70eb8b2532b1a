// The GraphQL side of generation: graphql-codegen with codegen.yml, in memory.
import { readFileSync } from "node:fs";
import { generate } from "@graphql-codegen/cli";
import { parse } from "yaml";
import type { GeneratedFile } from "./rest.js";

/** `mappers` are set on every output that generates resolvers (each resource type → its domain model). */
export async function generateGraphql(configFile: string, { mappers = {} }: { mappers?: Record<string, string> } = {}): Promise<GeneratedFile[]> {
  const config = parse(readFileSync(configFile, "utf8"));
  for (const output of Object.values(config.generates ?? {}) as { plugins?: string[]; config?: Record<string, unknown> }[]) {
    if (output.plugins?.includes("typescript-resolvers")) output.config = { ...output.config, mappers: { ...mappers, ...(output.config?.mappers as object) } };
  }
  const outputs: { filename: string; content: string }[] = await generate({ ...config, cwd: process.cwd(), silent: true, verbose: false }, false);
  return outputs.map((o) => ({ path: o.filename, content: o.content, source: `${config.schema} + ${config.documents}` }));
}
