// Finds the path template a request path belongs to in time that does not grow with the number of paths:
// a trie of path segments, built once. Static segments win over templated ones ("/users/me" before "/users/{id}"),
// segments mixing text and parameters ("{name}.{ext}") over whole-segment parameters; it backtracks when needed.
export interface PathMatch<T> {
  value: T;
  params: Record<string, string>;
}

interface Node<T> {
  statics: Map<string, Node<T>>;
  patterns: { re: RegExp; node: Node<T> }[];
  param?: Node<T>;
  /** the path's value and its parameter names in order: templates sharing a prefix may name parameters differently */
  end?: { value: T; names: string[] };
}

const node = <T>(): Node<T> => ({ statics: new Map(), patterns: [] });
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const segmentsOf = (path: string) => {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.split("/").slice(1);
};

/** Thrown for a path whose parameters are not valid percent-encoding. */
export class MalformedPath extends Error {}

function decode(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MalformedPath(`"${segment}" is not valid percent-encoding`);
  }
}

export function createPathMatcher<T>(routes: { path: string; value: T }[]): (path: string) => PathMatch<T> | undefined {
  const root = node<T>();
  for (const { path, value } of routes) {
    let current = root;
    const names: string[] = [];
    for (const segment of segmentsOf(path)) {
      if (/^\{[^{}]+\}$/.test(segment)) {
        names.push(segment.slice(1, -1));
        current = current.param ??= node<T>();
      } else if (segment.includes("{")) {
        const source = segment.split(/(\{[^{}]+\})/).map((part) => {
          if (!/^\{[^{}]+\}$/.test(part)) return escapeRe(part);
          names.push(part.slice(1, -1));
          return "([^/]+?)";
        });
        const re = new RegExp(`^${source.join("")}$`);
        let entry = current.patterns.find((p) => p.re.source === re.source);
        if (!entry) current.patterns.push((entry = { re, node: node<T>() }));
        current = entry.node;
      } else {
        let next = current.statics.get(segment);
        if (!next) current.statics.set(segment, (next = node<T>()));
        // Request paths arrive percent-encoded: "/säge" is requested as "/s%C3%A4ge".
        const encoded = encodeURIComponent(segment);
        if (encoded !== segment && !current.statics.has(encoded)) current.statics.set(encoded, next);
        current = next;
      }
    }
    current.end = { value, names };
  }

  /** Depth-first, static before pattern before parameter; captures are pushed deepest first. */
  const walk = (at: Node<T>, segments: string[], i: number, captures: string[]): Node<T>["end"] => {
    if (i === segments.length) return at.end;
    const segment = segments[i];
    const fixed = at.statics.get(segment);
    const viaStatic = fixed && walk(fixed, segments, i + 1, captures);
    if (viaStatic) return viaStatic;
    if (segment === "") return undefined;
    for (const p of at.patterns) {
      const m = p.re.exec(segment);
      const found = m && walk(p.node, segments, i + 1, captures);
      if (found) {
        for (let k = m.length - 1; k > 0; k--) captures.push(m[k]);
        return found;
      }
    }
    const found = at.param && walk(at.param, segments, i + 1, captures);
    if (found) captures.push(segment);
    return found;
  };

  return (path) => {
    const captures: string[] = [];
    const end = walk(root, segmentsOf(path), 0, captures);
    if (!end) return undefined;
    captures.reverse();
    const params: Record<string, string> = {};
    end.names.forEach((name, k) => (params[name] = decode(captures[k])));
    return { value: end.value, params };
  };
}
