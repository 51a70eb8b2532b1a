// What generation tells the user besides the files: one-line warnings, each naming the file and the JSON pointer of
// a lint-level defect it got past or of a construct it degraded. Fatal problems are SpecErrors (spec.ts).

export interface Warning {
  /** JSON pointer into the document ("" = the whole document) */
  pointer: string;
  /** what was found and what generation did about it */
  message: string;
  /** a short stable name for the class of warning, to group them (e.g. "lint", "pattern", "raw-parameter") */
  kind: string;
}

/** Collects warnings for one document; the same warning at the same pointer is kept once. */
export class Warnings {
  readonly list: Warning[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly file: string) {}

  add(kind: string, pointer: string, message: string): void {
    const key = `${pointer}\0${message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push({ kind, pointer, message });
  }

  /** Takes warnings gathered elsewhere (e.g. on the validators' worker thread). */
  addAll(warnings: readonly Warning[]): void {
    for (const w of warnings) this.add(w.kind, w.pointer, w.message);
  }
}

export const formatWarning = (file: string, w: Warning) => `${file}#${w.pointer}: warning: ${w.message}`;

/**
 * The lines to print: every warning when there are few, else the first `perKind` of each kind and one line per
 * kind saying how many more there are (a generated SDK's document can carry thousands of the same slip).
 */
export function warningLines(file: string, warnings: readonly Warning[], { all = false, perKind = 5 } = {}): string[] {
  if (all || warnings.length <= 20) return warnings.map((w) => formatWarning(file, w));
  const byKind = new Map<string, Warning[]>();
  for (const w of warnings) {
    const list = byKind.get(w.kind) ?? [];
    list.push(w);
    byKind.set(w.kind, list);
  }
  const lines: string[] = [];
  for (const [kind, list] of byKind) {
    lines.push(...list.slice(0, perKind).map((w) => formatWarning(file, w)));
    if (list.length > perKind)
      lines.push(`${file}: warning: … ${list.length - perKind} more "${kind}" warnings (--verbose lists them all)`);
  }
  return lines;
}

/** A disagreement between the specs, or a rule of theirs broken. */
export interface ContractProblem {
  /** where: "openapi.yaml#/tags/2", "schema.graphql Query.product" */
  at: string;
  message: string;
}
