// models.ts: one named type per schema of openapi.yaml's components, so the domain writes `LoanStatus` or `Loan`
// (and `interface Loan extends Models.Loan { version: number }`) instead of restating the spec's enums and shapes:
// a value or field added to the spec is then a compile error wherever it is not handled (a Record<LoanStatus, …>, a
// switch with a never default), not a silent gap. The types are openapi.ts's; GraphQL's enums are graphql.ts's.
import { isObject, type JsonObject } from "../load/spec.js";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Names openapi.ts itself exports: a schema of that name keeps its components["schemas"] spelling only. */
const TAKEN = new Set(["paths", "webhooks", "components", "operations", "$defs"]);

const comment = (text: string) =>
  `/** ${text
    .replace(/\*\//g, "*\\/")
    .replace(/\s*\n\s*/g, " ")
    .trim()} */\n`;

/** generated/models.ts of a loaded openapi.yaml, or undefined when it has no component schemas. */
export function emitModels(doc: JsonObject): string | undefined {
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const names = Object.keys(schemas).filter((name) => IDENTIFIER.test(name) && !TAKEN.has(name));
  if (names.length === 0) return undefined;
  const lines = names.map((name) => {
    const schema = schemas[name];
    const description = isObject(schema) && typeof schema.description === "string" ? schema.description : undefined;
    return `${description ? comment(description) : ""}export type ${name} = components["schemas"]["${name}"];`;
  });
  return [
    "// The schemas of openapi.yaml's components by name: the domain's enums and models are these, not copies of them.",
    'import type { components } from "./openapi.js";',
    "",
    ...lines,
    "",
  ].join("\n");
}
