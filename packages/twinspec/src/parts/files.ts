// Twinspec's parts: pieces of API the framework declares and serves, which an application includes by naming them in
// its openapi.yaml (`x-twinspec-parts: [webhook-endpoints]` at the root). Each is an OpenAPI fragment and its GraphQL
// mirror, in the package's parts/<name>/ (openapi.yaml, schema.graphql). This module names them and gives the
// GraphQL side as the schema reads it (no YAML parser: the GraphQL runtime loads it at start); include.ts merges the
// OpenAPI side.
import { readFileSync } from "node:fs";
import { ownFile } from "../paths.js";

/** Where an application lists the parts it includes: a member of openapi.yaml's root. */
export const PARTS_KEY = "x-twinspec-parts";
/** What the merge marks each operation of a part with: the part's name (the framework serves it). */
export const PART_KEY = "x-twinspec-part";

/** Every part there is. */
export const KNOWN_PARTS = ["webhook-endpoints"] as const;
export type PartName = (typeof KNOWN_PARTS)[number];

/** A part that cannot be included as the document stands: where (a JSON pointer into openapi.yaml) and why. */
export class PartError extends Error {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${pointer}: ${reason}`);
  }
}

/** The files of a part: its OpenAPI fragment and its GraphQL mirror. */
export const partFiles = (name: PartName) => ({
  openapi: ownFile(`parts/${name}/openapi.yaml`),
  graphql: ownFile(`parts/${name}/schema.graphql`),
});

/** The parts an OpenAPI document (as parsed) includes; a malformed list or an unknown name is a PartError. */
export function partsOf(doc: Record<string, unknown>): PartName[] {
  const list = doc[PARTS_KEY];
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((p) => typeof p !== "string"))
    throw new PartError(`/${PARTS_KEY}`, `must be a list of part names (${KNOWN_PARTS.join(", ")})`);
  const unknown = list.find((p) => !(KNOWN_PARTS as readonly string[]).includes(p));
  if (unknown !== undefined)
    throw new PartError(`/${PARTS_KEY}`, `"${unknown}" is not a part of Twinspec's (${KNOWN_PARTS.join(", ")})`);
  return [...new Set(list as PartName[])];
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The GraphQL SDL the parts add to the application's schema.graphql: each part's schema.graphql, and for
 * webhook-endpoints the enum of the application's webhooks (`events` lists them).
 *
 * @param parts - the parts included (ContractFacts.parts, or partsOf(openapi.yaml))
 * @param webhooks - the application's webhooks' names (its event types)
 */
export function partTypeDefs(parts: readonly string[], webhooks: readonly string[]): string {
  const sdl: string[] = [];
  for (const name of parts as PartName[]) {
    sdl.push(readFileSync(partFiles(name).graphql, "utf8"));
    if (name === "webhook-endpoints") {
      const bad = webhooks.find((w) => !GRAPHQL_NAME.test(w) || ["true", "false", "null"].includes(w));
      if (bad !== undefined)
        throw new PartError(
          `/webhooks/${bad}`,
          `webhook-endpoints mirrors the webhooks' names as GraphQL enum values: "${bad}" is not a GraphQL name`,
        );
      sdl.push(
        `"An event type the application declares as a webhook"\nenum WebhookEventType {\n${webhooks.map((w) => `  ${w}\n`).join("")}}\n`,
      );
    }
  }
  return sdl.join("\n");
}

/** schema.graphql with the parts' SDL after it (unchanged when there are none). */
export const withPartTypeDefs = (sdl: string, parts: readonly string[], webhooks: readonly string[]) =>
  parts.length ? `${sdl}\n${partTypeDefs(parts, webhooks)}` : sdl;
