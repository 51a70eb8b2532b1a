// The project's specs as everything of the generator and the test kit reads them: openapi.yaml with the Twinspec
// parts it includes merged in (x-twinspec-parts), and schema.graphql with their GraphQL mirror after it. What cannot
// be included is a SpecError naming the place in openapi.yaml.
import { includeParts, PartError, partsOf, withPartTypeDefs } from "twinspec/internals";
import { SpecError, isObject, loadDocument, type JsonObject } from "./spec.js";

/** `doc` (openapi.yaml as parsed, from `file`) with its parts merged in; itself when it includes none. */
export function withParts(file: string, doc: JsonObject): JsonObject {
  return specErrors(file, () => includeParts(doc));
}

/** schema.graphql's text with the SDL of the parts `doc` (openapi.yaml, from `file`) includes after it. */
export function graphqlWithParts(file: string, sdl: string, doc: JsonObject): string {
  return specErrors(file, () =>
    withPartTypeDefs(sdl, partsOf(doc), isObject(doc.webhooks) ? Object.keys(doc.webhooks) : []),
  );
}

function specErrors<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof PartError) throw new SpecError(file, error.pointer, error.reason);
    throw error;
  }
}

/** openapi.yaml read from `file` (not bundled), with the parts it includes merged in. */
export const loadWithParts = (file: string): JsonObject => withParts(file, loadDocument(file));
