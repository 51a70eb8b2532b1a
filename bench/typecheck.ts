// Type-checks generated code held in memory with the TypeScript compiler API, as the project's tsconfig does it
// (strict, NodeNext), many documents per program: one tsc process per document would re-read and re-bind lib.d.ts,
// @types/node, koa… each time. The host keeps every source file it parsed from disk, so later programs reuse them;
// diagnostics are attributed to the document whose files they are in.
import { dirname, join, resolve } from "node:path";
import ts from "typescript";

export interface CheckResult {
  /** "file(line,col): TS1234: message", at most a few per document */
  errors: string[];
  /** how many diagnostics in all */
  count: number;
  ms: number;
}

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "..");

function compilerOptions(): ts.CompilerOptions {
  const { config } = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  return { ...options, types: ["node"], noEmit: true, incremental: false };
}

/** A checker for batches of in-memory files; create one and reuse it, so what it read from disk stays parsed. */
export function createChecker() {
  const options = compilerOptions();
  const disk = new Map<string, ts.SourceFile | undefined>();
  let memory = new Map<string, string>();
  let dirs = new Set<string>();
  let previous: ts.Program | undefined;
  const base = ts.createCompilerHost(options, true);
  const host: ts.CompilerHost = {
    ...base,
    fileExists: (f) => memory.has(f) || base.fileExists(f),
    directoryExists: (d) => dirs.has(d) || (base.directoryExists?.(d) ?? true),
    readFile: (f) => memory.get(f) ?? base.readFile(f),
    getSourceFile(fileName, languageVersion) {
      const text = memory.get(fileName);
      if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
      if (!disk.has(fileName)) disk.set(fileName, base.getSourceFile(fileName, languageVersion));
      return disk.get(fileName);
    },
  };

  /**
   * Checks `documents` (name → absolute path → content) in one program. Only the .ts/.d.cts files are roots;
   * the runtime they import is checked once by the project's own tsc, and its diagnostics are not reported here.
   */
  return function check(documents: Map<string, Map<string, string>>): Map<string, CheckResult> {
    memory = new Map([...documents.values()].flatMap((files) => [...files]));
    dirs = new Set([...memory.keys()].map((f) => dirname(f)));
    const roots = [...memory.keys()].filter((f) => /\.(ts|d\.cts)$/.test(f) && !f.endsWith(".cjs"));
    const program = ts.createProgram({ rootNames: roots, options, host, oldProgram: previous });
    previous = program;
    const results = new Map<string, CheckResult>();
    for (const [name, files] of documents) {
      const started = performance.now();
      const diagnostics: ts.Diagnostic[] = [];
      for (const path of files.keys()) {
        const sf = program.getSourceFile(path);
        if (sf) diagnostics.push(...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf));
      }
      results.set(name, {
        errors: diagnostics.slice(0, 3).map(format),
        count: diagnostics.length,
        ms: Math.round(performance.now() - started),
      });
    }
    return results;
  };
}

function format(d: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(d.messageText, " ").slice(0, 300);
  if (!d.file || d.start === undefined) return `TS${d.code}: ${message}`;
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return `${d.file.fileName.split("/").slice(-1)[0]}(${line + 1},${character + 1}): TS${d.code}: ${message}`;
}
