// A small SVG line chart per series, stacked, against a shared x axis: enough to see whether a soak curve is flat.
// Hand-written (no plotting library): the figures are a few hundred points.

export interface Series {
  title: string;
  unit: string;
  values: number[];
  /** a second line on the same chart (e.g. a limit or a related count) */
  also?: { label: string; values: number[] };
}

const W = 900;
const H = 140;
const PAD = { left: 70, right: 20, top: 28, bottom: 22 };

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const fmt = (v: number) =>
  Number.isInteger(v) || Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);

export function svgChart(opts: {
  title: string;
  x: number[];
  xLabel: string;
  series: Series[];
  shadeUntil?: number;
}): string {
  const { x, series } = opts;
  const x0 = Math.min(...x);
  const x1 = Math.max(...x, x0 + 1);
  const sx = (v: number) => PAD.left + ((v - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const parts: string[] = [];
  let top = 40;
  for (const s of series) {
    const all = [...s.values, ...(s.also?.values ?? [])].filter(Number.isFinite);
    const lo = Math.min(0, ...all);
    const hi = Math.max(...all, lo + 1) * 1.1;
    const sy = (v: number) => top + PAD.top + (1 - (v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    const line = (values: number[]) =>
      values
        .map((v, i) => (Number.isFinite(v) ? `${sx(x[i]).toFixed(1)},${sy(v).toFixed(1)}` : ""))
        .filter(Boolean)
        .join(" ");
    parts.push(`<g>`);
    if (opts.shadeUntil !== undefined) {
      parts.push(
        `<rect x="${PAD.left}" y="${top + PAD.top}" width="${(sx(opts.shadeUntil) - PAD.left).toFixed(1)}" height="${H - PAD.top - PAD.bottom}" fill="#eee"/>`,
      );
    }
    const values = s.values.filter(Number.isFinite);
    const summary = values.length
      ? `min ${fmt(Math.min(...values))}, max ${fmt(Math.max(...values))}, last ${fmt(values.at(-1)!)}`
      : "";
    parts.push(
      `<text x="${PAD.left}" y="${top + 18}" font-size="13" font-weight="bold">${esc(s.title)} (${esc(s.unit)})</text>`,
    );
    parts.push(
      `<text x="${W - PAD.right}" y="${top + 18}" font-size="11" text-anchor="end" fill="#555">${esc(summary)}</text>`,
    );
    for (const v of [lo, (lo + hi) / 2, hi]) {
      parts.push(
        `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${sy(v).toFixed(1)}" y2="${sy(v).toFixed(1)}" stroke="#ddd"/>`,
      );
      parts.push(
        `<text x="${PAD.left - 6}" y="${(sy(v) + 4).toFixed(1)}" font-size="10" text-anchor="end" fill="#555">${fmt(v)}</text>`,
      );
    }
    if (s.also)
      parts.push(
        `<polyline fill="none" stroke="#d62728" stroke-width="1.2" stroke-dasharray="4 3" points="${line(s.also.values)}"><title>${esc(s.also.label)}</title></polyline>`,
      );
    parts.push(`<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="${line(s.values)}"/>`);
    if (s.also)
      parts.push(
        `<text x="${W - PAD.right}" y="${top + H - 6}" font-size="10" text-anchor="end" fill="#d62728">dashed: ${esc(s.also.label)}</text>`,
      );
    parts.push(`</g>`);
    top += H;
  }
  // x axis ticks under the last chart
  for (let i = 0; i <= 5; i++) {
    const v = x0 + ((x1 - x0) * i) / 5;
    parts.push(
      `<text x="${sx(v).toFixed(1)}" y="${top + 14}" font-size="10" text-anchor="middle" fill="#555">${Math.round(v).toLocaleString("en-US")}</text>`,
    );
  }
  parts.push(
    `<text x="${W / 2}" y="${top + 30}" font-size="11" text-anchor="middle">${esc(opts.xLabel)}${opts.shadeUntil !== undefined ? " (grey: warm-up)" : ""}</text>`,
  );
  const height = top + 40;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${W / 2}" y="24" font-size="15" text-anchor="middle" font-weight="bold">${esc(opts.title)}</text>`,
    ...parts,
    `</svg>`,
    "",
  ].join("\n");
}
