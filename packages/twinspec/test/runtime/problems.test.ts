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

describe("the problem catalog", () => {
  it("is the only source that writes a urn:twinspec:problem: URI", () => {
    assert.ok(SOURCES.length > 100, `${SOURCES.length} sources found: the directories are still there`);
    const strays = SOURCES.filter((f) => f !== CATALOG && readFileSync(f, "utf8").includes("urn:twinspec:problem:")).map((f) => relative(ROOT, f));
    assert.deepEqual(strays, []);
  });

  it("names each type after its key, once, titles it with the status phrase unless it has its own, and codes it as GraphQL does", () => {
    for (const [key, entry] of entries) {
      assert.equal(entry.type, `urn:twinspec:problem:${key.replace(/_/g, "-")}`, key);
      assert.equal(entry.title, OWN_TITLES.includes(key) ? entry.title : STATUS_CODES[entry.status], key);
      assert.ok(entry.title, key);
      if (entry.code) assert.ok((GRAPHQL_CODES as readonly string[]).includes(entry.code), `${key}: ${entry.code} is not in GRAPHQL_CODES`);
    }
    assert.equal(new Set(entries.map(([, e]) => e.type)).size, entries.length);
  });

  it("holds every kind of the error table, as the table reads it", () => {
    for (const [kind, reading] of Object.entries(ERRORS)) assert.equal(reading, PROBLEMS[kind as keyof typeof PROBLEMS], kind);
  });

  it("has no entry that no source reads", () => {
    const texts = SOURCES.filter((f) => f !== CATALOG && f !== TABLE).map((f) => readFileSync(f, "utf8"));
    const unread = entries.map(([key]) => key).filter((key) => !texts.some((t) => new RegExp(`["'.]${key}\\b`).test(t)));
    assert.deepEqual(unread, []);
  });
});
