// Merging Twinspec's parts into an application's OpenAPI document (as parsed): what `generate` reads, the test kit
// walks and /openapi.json serves, so a part's operations are the application's like any other (types, validators,
// routes, client, docs) while the application writes none of it. Each part's tags, paths and components join the
// document's; a name the document uses already is a PartError, unless it holds the same thing. Then the part is
// fitted to the application: its operations use the application's bearer scheme, whose x-scopes get the part's
// scopes; each operation is marked with the part's name (x-twinspec-part: the framework serves it); 429 is declared
// only where the application declares a default rate limit (root x-rate-limit), as only then is it answered.
// webhook-endpoints also needs the document's webhooks: WebhookEventType lists them, and the example registers for
// the first.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { parse } from "yaml";
import { PART_KEY, PartError, partFiles, partsOf, type PartName } from "./files.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The scheme name the parts' operations are written with; the application's bearer scheme takes its place. */
const PART_SCHEME = "bearerAuth";

/** The document with every part it lists merged in (a copy), or the document itself when it lists none. */
export function includeParts(doc: JsonObject): JsonObject {
  const parts = partsOf(doc);
  if (parts.length === 0) return doc;
  const out = structuredClone(doc);
  for (const name of parts) merge(out, name, parse(readFileSync(partFiles(name).openapi, "utf8")) as JsonObject);
  return out;
}

function merge(doc: JsonObject, name: PartName, part: JsonObject) {
  const where = `/x-twinspec-parts (${name})`;
  const scheme = bearerScheme(doc, name);
  // Scopes: the part's join the application's scheme's x-scopes.
  const partScopes = (part.components as JsonObject).securitySchemes as JsonObject;
  const scopes = ((partScopes[PART_SCHEME] as JsonObject)["x-scopes"] ?? {}) as JsonObject;
  const target = scheme.value;
  const declared = isObject(target["x-scopes"]) ? target["x-scopes"] : (target["x-scopes"] = {});
  for (const [scope, text] of Object.entries(scopes)) declared[scope] ??= text;

  const tags = (doc.tags ??= []) as JsonObject[];
  for (const tag of (part.tags ?? []) as JsonObject[]) {
    if (tags.some((t) => isObject(t) && t.name === tag.name))
      throw new PartError("/tags", `the tag "${tag.name as string}" is ${name}'s (${where}); name yours otherwise`);
    tags.push(tag);
  }

  const limited = doc["x-rate-limit"] !== undefined;
  const paths = (doc.paths ??= {}) as JsonObject;
  for (const [path, item] of Object.entries(part.paths as JsonObject)) {
    if (path in paths)
      throw new PartError(`/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}`, `${path} is ${name}'s (${where})`);
    for (const method of METHODS) {
      const op = (item as JsonObject)[method];
      if (!isObject(op)) continue;
      op[PART_KEY] = name;
      if (Array.isArray(op.security))
        op.security = op.security.map((alt) =>
          Object.fromEntries(
            Object.entries(alt as JsonObject).map(([k, v]) => [k === PART_SCHEME ? scheme.name : k, v]),
          ),
        );
      if (!limited && isObject(op.responses)) delete op.responses["429"];
    }
    paths[path] = item;
  }

  const components = (doc.components ??= {}) as JsonObject;
  for (const [section, entries] of Object.entries(part.components as JsonObject)) {
    if (section === "securitySchemes") continue;
    const into = (components[section] ??= {}) as JsonObject;
    for (const [key, value] of Object.entries(entries as JsonObject)) {
      if (key in into && !isDeepStrictEqual(into[key], value))
        throw new PartError(`/components/${section}/${key}`, `"${key}" is ${name}'s (${where}); name yours otherwise`);
      into[key] = value;
    }
  }

  if (name === "webhook-endpoints") fitWebhooks(doc, where);
}

/** The application's bearer scheme (http, bearer): the one with x-scopes first. */
function bearerScheme(doc: JsonObject, name: string): { name: string; value: JsonObject } {
  const schemes =
    isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
  const bearer = Object.entries(schemes).filter(
    (e): e is [string, JsonObject] =>
      isObject(e[1]) &&
      e[1].type === "http" &&
      typeof e[1].scheme === "string" &&
      e[1].scheme.toLowerCase() === "bearer",
  );
  const found = bearer.find(([, s]) => isObject(s["x-scopes"])) ?? bearer[0];
  if (!found)
    throw new PartError(
      "/components/securitySchemes",
      `${name} is secured by bearer tokens: declare an http bearer scheme (with x-scopes) for it to use`,
    );
  return { name: found[0], value: found[1] };
}

function fitWebhooks(doc: JsonObject, where: string) {
  const names = isObject(doc.webhooks) ? Object.keys(doc.webhooks) : [];
  if (names.length === 0)
    throw new PartError(
      "/x-twinspec-parts",
      `webhook-endpoints registers endpoints for the document's webhooks (${where}), and it declares none under webhooks:`,
    );
  const schemas = (doc.components as JsonObject).schemas as JsonObject;
  (schemas.WebhookEventType as JsonObject).enum = names;
  const create = ((doc.paths as JsonObject)["/webhook-endpoints"] as JsonObject).post as JsonObject;
  const media = ((create.requestBody as JsonObject).content as JsonObject)["application/json"] as JsonObject;
  (media.example as JsonObject).events = [names[0]];
}
