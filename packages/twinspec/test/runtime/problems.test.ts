// The problem catalog (src/runtime/problems.ts) is the one place a problem type is written: clients and the generated
// clients switch on these URIs, so a URI spelled anywhere else is one the catalog (and its readers) do not know.
// Its entries agree with themselves, with the error table and with the GraphQL codes, and each is read somewhere.
import assert from "node:assert/strict";
import { STATUS_CODES } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ERRORS, GRAPHQL_CODES } from "../../src/error-table.js";
import { PROBLEMS, type ProblemEntry } from "../../src/runtime/problems.js";

const ROOT = fileURLToPath(new URL("../../../..", import.meta.url));
const CATALOG = join(ROOT, "packages/twinspec/src/runtime/problems.ts");
/** problem() and httpError(): the builders a problem outside the catalog (a status not the server's to pick) goes through. */
const BUILDERS = join(ROOT, "packages/twinspec/src/runtime/problem.ts");
const TABLE = join(ROOT, "packages/twinspec/src/error-table.ts");
/** The hand-written sources: the runtime, the generator and test kit, the application. */
const SOURCES = ["packages/twinspec/src", "packages/twinspec-dev/src", "src"].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|mjs)$/.test(f))
    .map((f) => join(ROOT, dir, f)),
);
const entries = Object.entries(PROBLEMS) as [string, ProblemEntry][];
/** The entries whose title is their own rather than the status phrase. */
const OWN_TITLES = ["validation", "response_validation", "job_failed"];
const BLANK = "about:blank";

/**
 * A problem's status or title picked on the spot rather than read from the catalog: a numeric status given to the
 * builders (the writer, answerProblem, takes the problem's own), a handler answer's literal status next to its problem, a problem-shaped object with a
 * title string, an about:blank type spelled out. Line by line, as the sources are formatted (prettier).
 */
const INLINE = [
  /\b(?:httpError|problem)\(\s*\d/,
  /\bstatus:\s*\d{3}\b.*\b(?:problem|problemOf)\(/,
  /\btitle:\s*["'`].*\b(?:status|detail):|\b(?:status|detail):.*\btitle:\s*["'`]/,
  /["'`]about:blank["'`]/,
];
const inline = (text: string) => text.split("\n").filter((line) => INLINE.some((re) => re.test(line)));

describe("the problem catalog", () => {
  it("is the only source that writes a urn:twinspec:problem: URI", () => {
    assert.ok(SOURCES.length > 100, `${SOURCES.length} sources found: the directories are still there`);
    const strays = SOURCES.filter(
      (f) => f !== CATALOG && readFileSync(f, "utf8").includes("urn:twinspec:problem:"),
    ).map((f) => relative(ROOT, f));
    assert.deepEqual(strays, []);
  });

  it("names each type after its key, once, titles it with the status phrase unless it has its own, and codes it as GraphQL does", () => {
    for (const [key, entry] of entries) {
      // about:blank: the status says it all, so the title is its phrase.
      if (entry.type !== BLANK) assert.equal(entry.type, `urn:twinspec:problem:${key.replace(/_/g, "-")}`, key);
      assert.equal(entry.title, OWN_TITLES.includes(key) ? entry.title : STATUS_CODES[entry.status], key);
      assert.ok(entry.title, key);
      if (entry.code)
        assert.ok(
          (GRAPHQL_CODES as readonly string[]).includes(entry.code),
          `${key}: ${entry.code} is not in GRAPHQL_CODES`,
        );
    }
    const typed = entries.filter(([, e]) => e.type !== BLANK);
    assert.equal(new Set(typed.map(([, e]) => e.type)).size, typed.length);
    // One about:blank entry per status: the status phrase is all a client sees of it.
    const blank = entries.filter(([, e]) => e.type === BLANK);
    assert.equal(new Set(blank.map(([, e]) => e.status)).size, blank.length);
  });

  it("is where every problem's status and title are picked: no source writes a status or title of one inline", () => {
    const strays = SOURCES.filter((f) => f !== CATALOG && f !== BUILDERS).flatMap((f) =>
      inline(readFileSync(f, "utf8")).map((line) => `${relative(ROOT, f)}: ${line.trim()}`),
    );
    assert.deepEqual(strays, []);
  });

  it("catches the inline spellings the catalog replaced, and not what reads it", () => {
    const caught = [
      "throw httpError(405, `${method} is not allowed`, {}, { Allow: entry.allow });",
      "answerProblem(ctx, 500, problem(500, `An unexpected error occurred`, { requestId }));",
      'if (!row.answer) return { status: 409, body: problem(409, "still being processed") };',
      'return { status: 412, body: problemOf("precondition", "fetch it again") };',
      'const body = JSON.stringify({ type: "about:blank", title: "Not Found", status: 404, detail });',
      'const body = { title: "Gone", detail: message };',
    ];
    assert.deepEqual(
      caught.filter((line) => inline(line).length === 0),
      [],
    );
    const fine = [
      'throw refusalOf("method_not_allowed", `${method} is not allowed`, {}, { Allow: entry.allow });',
      'answerProblem(ctx, problemOf("internal", `An unexpected error occurred`, { requestId }));',
      "const body = JSON.stringify(problem(status, detail, { requestId }));",
      'problem(where, "x-rate-limit must be { limit, window }");',
      "const problem = { title: error instanceof JobFailed ? error.title : PROBLEMS.job_failed.title, detail: (error as Error).message };",
      'return { status: 200, contentType: EVENT_STREAM, headers: { "Cache-Control": "no-store" }, body };',
    ];
    assert.deepEqual(
      fine.filter((line) => inline(line).length > 0),
      [],
    );
  });

  it("holds every kind of the error table, as the table reads it", () => {
    for (const [kind, reading] of Object.entries(ERRORS))
      assert.equal(reading, PROBLEMS[kind as keyof typeof PROBLEMS], kind);
  });

  it("has no entry that no source reads", () => {
    const texts = SOURCES.filter((f) => f !== CATALOG && f !== TABLE).map((f) => readFileSync(f, "utf8"));
    const unread = entries
      .map(([key]) => key)
      .filter((key) => !texts.some((t) => new RegExp(`["'.]${key}\\b`).test(t)));
    assert.deepEqual(unread, []);
  });
});
