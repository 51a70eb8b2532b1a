// The GraphQL side of generation: graphql-codegen with codegen.yml, in memory.
import { readFileSync } from "node:fs";
import { generate } from "@graphql-codegen/cli";
import { parse } from "yaml";
import type { GeneratedFile } from "./rest.js";

export async function generateGraphql(configFile: string): Promise<GeneratedFile[]> {
  const config = parse(readFileSync(configFile, "utf8"));
  const outputs: { filename: string; content: string }[] = await generate({ ...config, cwd: process.cwd(), silent: true, verbose: false }, false);
  return outputs.map((o) => ({ path: o.filename, content: o.content, source: `${config.schema} + ${config.documents}` }));
}
