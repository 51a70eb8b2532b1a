// Whether a value reads back as it was written, as the round trips compare it: what was sent, key by key and item by
// item, against what is read (keys the server adds are not differences); null sent reads back null or absent; a
// `format: date-time` string reads back as the same instant, however written (the server may normalise it).
import { isObject, type JsonObject } from "../codegen/load/spec.js";
import type { Spec } from "./spec.js";

/** One place where what was read is not what was sent. */
export interface Difference {
  /** JSON pointer into the body sent ("/items/0/unitPrice") */
  pointer: string;
  sent: unknown;
  /** what was read there (undefined: absent) */
  read: unknown;
}

const schemaAt = (
  resolve: Spec["resolve"],
  schema: JsonObject | undefined,
  key: string | number,
): JsonObject | undefined => {
  if (!schema) return undefined;
  if (typeof key === "number") return schema.items ? resolve(schema.items) : undefined;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  if (props?.[key]) return resolve(props[key]);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const found: JsonObject | undefined = schemaAt(resolve, resolve(part), key);
    if (found) return found;
  }
  return undefined;
};

const sameInstant = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string" && !Number.isNaN(Date.parse(a)) && Date.parse(a) === Date.parse(b);

/**
 * Where `read` differs from `sent` (empty: it reads back as written).
 *
 * @param resolve - the spec's $ref resolver
 * @param schema - the schema `sent` was written against (for its formats), resolved
 * @param sent - what was written
 * @param read - what was read back
 * @param pointer - where `sent` is in the body (default the whole body)
 */
export function differences(
  resolve: Spec["resolve"],
  schema: JsonObject | undefined,
  sent: unknown,
  read: unknown,
  pointer = "",
): Difference[] {
  if (sent === undefined) return [];
  if (sent === null) return read === null || read === undefined ? [] : [{ pointer, sent, read }];
  if (Array.isArray(sent)) {
    if (!Array.isArray(read) || read.length !== sent.length) return [{ pointer, sent, read }];
    return sent.flatMap((item, i) =>
      differences(resolve, schemaAt(resolve, schema, i), item, read[i], `${pointer}/${i}`),
    );
  }
  if (isObject(sent)) {
    if (!isObject(read)) return [{ pointer, sent, read }];
    return Object.entries(sent).flatMap(([key, value]) =>
      differences(
        resolve,
        schemaAt(resolve, schema, key),
        value,
        read[key],
        `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`,
      ),
    );
  }
  if (sent === read) return [];
  if (schema?.format === "date-time" && sameInstant(sent, read)) return [];
  return [{ pointer, sent, read }];
}

/** A value as a failure shows it: JSON, cut short; "absent" for undefined. */
export const shown = (value: unknown, max = 120): string => {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > max ? `${text.slice(0, max)}…` : text;
};
