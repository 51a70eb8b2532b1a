// Accept (RFC 9110 §12.5.1): may the server answer any of the media types an operation produces?

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function ranges(accept: string): Range[] {
  return accept.split(",").flatMap((part) => {
    const [range, ...params] = part.split(";");
    const [type, subtype] = range.trim().toLowerCase().split("/");
    if (!type || !subtype) return [];
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)).find(Boolean);
    return [{ type, subtype, q: q ? Number(q[1]) : 1 }];
  });
}

const covers = (r: Range, media: string) => {
  const [type, subtype] = media.split("/");
  return (r.type === "*" || r.type === type) && (r.subtype === "*" || r.subtype === subtype);
};

/** The first of `offered` the client accepts (most specific matching range decides its q), or undefined. */
export function preferred(accept: string | undefined, offered: readonly string[]): string | undefined {
  if (!accept || accept === "*/*") return offered[0];
  const parsed = ranges(accept);
  if (parsed.length === 0) return offered[0];
  let best: string | undefined;
  let bestQ = 0;
  for (const media of offered) {
    const matching = parsed.filter((r) => covers(r, media));
    if (matching.length === 0) continue;
    const specific = matching.reduce((a, b) => (specificity(b) > specificity(a) ? b : a));
    if (specific.q > bestQ) {
      best = media;
      bestQ = specific.q;
    }
  }
  return best;
}

const specificity = (r: Range) => (r.type === "*" ? 0 : r.subtype === "*" ? 1 : 2);
