// openapi.ts: openapi-typescript's types for a document loadSpec has already linted and bundled.
import type { OpenAPI3, OpenAPITSOptions } from "openapi-typescript";
import { openapiTypescript } from "../load/commonjs.js";
import type { Warnings } from "../load/diagnostics.js";
import { at, replaceAt, type JsonObject } from "../load/spec.js";

/**
 * openapiTS(doc, { silent: true, emptyObjectsUnknown: true }) of openapi-typescript 7.13 without its first step,
 * validateAndBundle: a lint with no rules and a bundle of a document with no external $ref left, which walk the
 * whole document twice for nothing (4 s of graph.json's 10, on the thread that waits for the types).
 * The context below is openapiTS's own, with its defaults; `components` is there, as the bundle makes it.
 */
function openapiTypes(doc: OpenAPI3): string {
  const { astToString, resolveRef, scanDiscriminators, transformSchema } = openapiTypescript();
  const schema = doc.components ? doc : { ...doc, components: {} }; // as the bundle leaves it
  const options: OpenAPITSOptions = { silent: true, emptyObjectsUnknown: true }; // "any object", not "an empty one"
  const ctx = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: scanDiscriminators(schema, options),
    emptyObjectsUnknown: true,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined,
    silent: true,
    inject: undefined,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref: string) => resolveRef(schema, $ref, { silent: true }),
  };
  return astToString(transformSchema(schema, ctx as never));
}

/**
 * openapi-typescript's helper for allOf members whose parent requires some of their properties. It demands that
 * those be keys of the member's type, which a member typed as a union or unknown does not have (plaid.com, linode):
 * such keys are passed over instead.
 */
const WITH_REQUIRED = /^type WithRequired<T, K extends keyof T> = T & \{\n {4}\[P in K\]-\?: T\[P\];\n\};$/m;
const LENIENT_WITH_REQUIRED =
  "type WithRequired<T, K extends PropertyKey> = T & {\n    [P in K & keyof T]-?: T[P];\n};";

/**
 * openapi-typescript's types. Where it stops at a schema it cannot type ("Expected SchemaObject, received string
 * at #/components/schemas/P/oneOf/0", for an object schema with an enum of strings), that schema is typed
 * unknown, with a warning, and it runs again; the validators were compiled from the document as it was.
 */
export function typesOf(doc: JsonObject, warnings: Warnings): string {
  for (let attempt = 0; ; attempt++) {
    try {
      return openapiTypes(doc as unknown as OpenAPI3).replace(WITH_REQUIRED, LENIENT_WITH_REQUIRED);
    } catch (error) {
      const message = String((error as Error)?.message ?? error);
      const found = /\bat #(\/\S*)/.exec(message);
      if (!found || attempt >= 20) throw error;
      // The deepest member of the document on the way (openapi-typescript may name a place it made up).
      let pointer = found[1];
      while (pointer && at(doc, `#${pointer}`) === undefined) pointer = pointer.slice(0, pointer.lastIndexOf("/"));
      if (!/\/schemas?(\/|$)/.test(pointer) || !replaceAt(doc, pointer, {})) throw error; // only ever a schema
      warnings.add(
        "types",
        pointer,
        `openapi-typescript cannot type this (${message.replace(/\s*\bat #\S*/, "")}): typed unknown`,
      );
    }
  }
}
