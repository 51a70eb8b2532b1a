// examples/type-safety.ts compiled without its @ts-expect-error directives: every directive's next line must fail
// with the message the directive states, and nothing else may fail. (With the directives, tsc in npm test
// proves each line still fails at all.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";

const FILE = resolve("examples/type-safety.ts");
const DIRECTIVE = /\/\/ @ts-expect-error: (.+)$/;

describe("type tests (examples/type-safety.ts)", function () {
  this.timeout(60_000);
  const source = readFileSync(FILE, "utf8");
  const lines = source.split("\n");
  const expected = lines.flatMap((line, i) => {
    const m = DIRECTIVE.exec(line);
    return m ? [{ line: i + 1, fragment: m[1], code: lines[i + 1].trim() }] : [];
  });
  let found: Map<number, string[]>;

  before(() => {
    const config = ts.getParsedCommandLineOfConfigFile(
      "tsconfig.json",
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const host = ts.createCompilerHost(config.options);
    const read = host.readFile.bind(host);
    // Same text, line for line, with the directives turned into plain comments.
    host.readFile = (name) =>
      resolve(name) === FILE ? source.replace(/@ts-expect-error/g, "expect-error") : read(name);
    const program = ts.createProgram([FILE], config.options, host);
    found = new Map();
    for (const d of ts.getPreEmitDiagnostics(program, program.getSourceFile(FILE))) {
      const line = d.file!.getLineAndCharacterOfPosition(d.start!).line;
      found.set(line, [...(found.get(line) ?? []), ts.flattenDiagnosticMessageText(d.messageText, "\n")]);
    }
  });

  it("has a type test for each promised refusal", () => {
    assert.ok(expected.length >= 10, `${expected.length} type tests`);
  });

  for (const { line, fragment, code } of expected) {
    it(`refuses \`${code}\`: ${fragment}`, () => {
      const messages = found.get(line) ?? [];
      assert.ok(
        messages.some((m) => m.includes(fragment)),
        `line ${line + 1}: expected "${fragment}", got:\n${messages.join("\n") || "(compiles)"}`,
      );
    });
  }

  it("nothing else in the file fails to compile", () => {
    const expectedLines = new Set(expected.map((e) => e.line));
    const stray = [...found].filter(([line]) => !expectedLines.has(line));
    assert.deepEqual(stray, []);
  });
});
