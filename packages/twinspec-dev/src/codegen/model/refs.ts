// $refs that point inside an operation, rewritten so openapi-typescript can type them.
import type { Warnings } from "../load/diagnostics.js";
import { identifier } from "./operations.js";
import { at, isObject, type Json, type JsonObject } from "../load/spec.js";

/**
 * $refs openapi-typescript cannot type as they are, and the components they are made: to an object held by an
 * operation rather than by components, or to a schema inside another (a property, a branch, its `definitions`).
 */
const KINDS: [RegExp, string][] = [
  [/^#\/components\/schemas\/[^/]+\/./, "schemas"],
  [/^#\/(paths|components)\/.*\/schema(\/|$)/, "schemas"],
  [/^#\/paths\/[^/]+(\/[^/]+)?\/parameters\/\d+$/, "parameters"],
  [/^#\/paths\/[^/]+\/[^/]+\/responses\/[^/]+$/, "responses"],
  [/^#\/paths\/[^/]+\/[^/]+\/requestBody$/, "requestBodies"],
  [/^#\/paths\/.*\/headers\/[^/]+$/, "headers"],
];

/**
 * openapi-typescript types a $ref to an object held by an operation ("#/paths/~1x/get/responses/401/content/
 * application~1json/schema", "#/paths/~1x/get/parameters/0") as an indexed access into its `paths` type that does
 * not exist or may be undefined, and the output does not compile. Each such target is also made a component (the
 * same object, so still one) and the $refs point there. Validation is unchanged: ajv reads either.
 */
function decoded(ref: string): string {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
}

export function hoistPathRefs(doc: JsonObject, warnings: Warnings): void {
  const hoisted = new Map<string, string>();
  const hoist = (written: string, kind: string): string => {
    const ref = decoded(written); // "%7Bid%7D" and "{id}" are one target
    const known = hoisted.get(ref);
    if (known) return known;
    const target = at(doc, ref);
    if (target === undefined) return written;
    const components = isObject(doc.components) ? doc.components : (doc.components = {});
    const into = isObject(components[kind]) ? components[kind] : (components[kind] = {});
    const stem = identifier(
      ref
        .replace(/^#\/(paths|components)\//, "")
        .replace(/~1/g, " ")
        .replace(/\/(content|schema)\b/g, ""),
    );
    let name = `${stem[0].toUpperCase()}${stem.slice(1)}`;
    for (let n = 2; name in into; n++) name = `${stem[0].toUpperCase()}${stem.slice(1)}${n}`;
    into[name] = target;
    const to = `#/components/${kind}/${name}`;
    hoisted.set(ref, to);
    warnings.add(
      "ref",
      ref.slice(1),
      `a $ref points inside an operation or a schema, here: typed as components/${kind}/${name}`,
    );
    return to;
  };
  const seen = new Set<object>();
  const walk = (value: Json) => {
    if (typeof value !== "object" || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach(walk);
    const ref = value.$ref;
    const kind = typeof ref === "string" ? KINDS.find(([re]) => re.test(ref))?.[1] : undefined;
    if (kind) value.$ref = hoist(ref as string, kind);
    for (const v of Object.values(value)) walk(v);
  };
  walk(doc);
}
