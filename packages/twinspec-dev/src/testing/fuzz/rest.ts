// A seeded fuzzer over every REST operation of openapi.yaml, against a real server: valid requests built from the
// spec's schemas, and the same mutated — bodies with fields missing, added, of wrong types or null, huge and odd
// strings, broken JSON, other media types; ids of every state (live, another owner's, deleted, moved, unknown,
// malformed); odd query parameters and headers; tokens of every kind. Oracles: no 5xx; every status is one the
// operation declares; every answer matches what is declared for its status (media type, body schema, required
// headers); the server stays ready. A failure prints the seed and path that replay it (FUZZ_SEED, FUZZ_PATH).
import assert from "node:assert/strict";
import fc from "fast-check";
import { describe } from "mocha";
import { isStubAnswer, it, stubsMet } from "../pending.js";
import { asking } from "../coverage.js";
import type { AppDefinition } from "twinspec/internals";
import { checkResponse, declaredFor } from "twinspec/internals";
import type { TestServerOptions } from "../server.js";
import { pathParams, specOf, type Operation } from "../spec.js";
import {
  authorization,
  fuzz,
  fuzzTarget,
  testFile,
  headerValue,
  hugeString,
  idOf,
  mutated as mutatedBy,
  oddString,
  send,
  settings,
  valid as validBy,
  wrong,
  type Ids,
} from "./support.js";
import { responseText } from "../body.js";

/** How the fuzzers run; every field is optional. */
export interface FuzzOptions {
  /** the test file, named in the command that replays a failure (default none: the command names no file) */
  file?: string;
  /** requests per property (FUZZ_RUNS overrides; default 800) */
  runs?: number;
  /** the longest a property runs (default 25 s) */
  timeLimitMs?: number;
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

const BODY_LIMIT = 16 * 1024;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

interface FuzzRequest {
  op: Operation;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Registers the REST fuzzer (a mocha suite): a seeded run of requests to every operation of the application's
 * openapi.yaml against a real server. A failure prints the seed and path that replay it (FUZZ_SEED, FUZZ_PATH).
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - runs, time limit, the test file and the server's options (`FuzzOptions`); default none
 */
export function describeRestFuzz(definition: AppDefinition, options: FuzzOptions = {}): void {
  const { operations, sampleBody, bodySchema, parameterSchema, resolve } = specOf(definition);
  const valid = (schema: unknown) => validBy(resolve, schema);
  const mutated = (schema: unknown) => mutatedBy(resolve, schema);

  /** Query parameters: the operation's own with valid, wrong or odd values, repeated, and unknown ones. */
  function query(op: Operation): fc.Arbitrary<string> {
    const names = op.parameters.filter((p) => p.in === "query").map((p) => p.name);
    const value = (name: string) => {
      const schema = parameterSchema(op, name);
      return fc.oneof(
        schema ? valid(schema) : fc.constant("1"),
        fc.constantFrom("", "-1", "0", "101", "1.5", "1e3", "abc", "%", "true"),
        oddString,
        hugeString(2_000),
      );
    };
    const pair = fc.oneof(
      ...names.map((n) => value(n).map((v) => [n, String(v)] as const)),
      fc.tuple(fc.constantFrom("unknown", "limit[]", "cursor.x", "__proto__"), oddString),
    );
    return fc.array(pair, { maxLength: 3 }).map((pairs) => {
      const text = new URLSearchParams(pairs.map(([k, v]) => [k, v] as [string, string])).toString();
      return text ? `?${text}` : "";
    });
  }

  /** The body: the schema's values (maybe mutated) as JSON, broken JSON, other media types, or none. */
  function body(op: Operation): fc.Arbitrary<{ type?: string; text?: string }> {
    const sample = sampleBody(op);
    const schema = bodySchema(op);
    const json = (value: unknown) => ({ type: sample?.type ?? "application/json", text: JSON.stringify(value) });
    const choices: fc.Arbitrary<{ type?: string; text?: string }>[] = [
      fc.constant({}),
      fc.constantFrom(
        { type: "application/json", text: "{" },
        { type: "application/json", text: '{"a":1,}' },
        { type: "application/json", text: "" },
        { type: "application/json", text: "\u0000" },
        { type: "text/plain", text: "hello" },
        { type: "application/x-www-form-urlencoded", text: "a=1&b=2" },
        { type: "application/json; charset=latin1", text: "{}" },
        { type: "multipart/form-data; boundary=x", text: "--x--" },
        { type: "application/merge-patch+json", text: "null" },
      ),
    ];
    if (schema && sample) {
      const values = mutated(schema);
      choices.push(
        values.map(json),
        values.map(json),
        values.map(json),
        fc.constant(json(sample.body)),
        wrong.map(json),
      );
      choices.push(
        fc
          .tuple(values, fc.integer({ min: 1, max: 40 }))
          .map(([v, cut]) => ({ type: sample.type, text: (JSON.stringify(v) ?? "").slice(0, -cut) })),
      );
      choices.push(hugeString(BODY_LIMIT * 2).map((pad) => json({ ...(sample.body as object), pad })));
    }
    return fc.oneof(...choices);
  }

  /** Mostly absent: most requests should get past the headers to the handlers. */
  const sometimes = <T>(arb: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

  const headers = (ids: Ids) =>
    fc.record({
      authorization: authorization(ids),
      accept: sometimes(
        fc.constantFrom(
          "application/json",
          "*/*",
          "application/problem+json",
          "image/png",
          "text/html",
          "application/json;q=0",
          "*/*;q=0.1, text/plain",
        ),
      ),
      "if-match": sometimes(headerValue),
      "if-none-match": sometimes(headerValue),
      "if-modified-since": sometimes(headerValue),
      "if-unmodified-since": sometimes(headerValue),
      prefer: sometimes(headerValue),
      "idempotency-key": sometimes(fc.oneof(fc.uuid(), headerValue)),
      "x-forwarded-for": sometimes(fc.constantFrom("10.0.0.1", "not an address")),
      origin: sometimes(fc.constantFrom("https://evil.example", "null")),
    });

  const describeRequest = (req: FuzzRequest) =>
    `${req.op.operationId}: ${req.method} ${req.url} ${JSON.stringify(req.headers)} ${JSON.stringify(req.body?.slice(0, 300) ?? "")}`;

  function request(ids: Ids): fc.Arbitrary<FuzzRequest> {
    return fc.oneof(
      ...operations.map((op) => {
        // Ids percent-encoded as a client would (lone surrogates made well-formed), or raw segments that are not. An
        // empty segment, "." or ".." would make the URL another operation's (URLs resolve dot segments): not those.
        const encoded = (id: string) =>
          /^\.{0,2}$/.test(id) ? `${id}_` : encodeURIComponent(id.replace(LONE_SURROGATE, "\ufffd"));
        const segment = (p: string) =>
          fc.oneof(
            { weight: 12, arbitrary: idOf(ids, p).map(encoded) },
            { weight: 1, arbitrary: fc.constantFrom("%", "%zz", "%E0%A4%A", "%00", "a%2Fb", "a%2F..") },
          );
        const idArbs = Object.fromEntries(pathParams(op.path).map((p) => [p, segment(p)]));
        const method = op.method === "GET" ? fc.constantFrom("GET", "GET", "HEAD") : fc.constant(op.method);
        return fc
          .record({ ids: fc.record(idArbs), query: query(op), headers: headers(ids), body: body(op), method })
          .map((r) => {
            const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => r.ids[name]);
            const sent = Object.fromEntries(Object.entries(r.headers).filter(([, v]) => v !== undefined)) as Record<
              string,
              string
            >;
            // fetch sends no body with GET or HEAD.
            const b = r.method === "GET" || r.method === "HEAD" ? {} : r.body;
            if (b.type) sent["content-type"] = b.type;
            const req: FuzzRequest = { op, method: r.method, url: `${path}${r.query}`, headers: sent, body: b.text };
            // How fast-check prints a counterexample: the request as sent, not the operation's compiled validators.
            return Object.assign(req, { [fc.toStringMethod]: () => describeRequest(req) });
          });
      }),
    );
  }

  describe("fuzz: REST", function () {
    this.timeout(120_000);
    const target = fuzzTarget(definition, BODY_LIMIT, options.server);

    it("every answer is declared for its operation and matches its declaration; no 5xx; the server stays ready", async function () {
      const base = target.server.url;
      const where = { file: testFile(options.file, this), suite: "fuzz: REST", stubs: new Set<string>() };
      const run = settings(options.runs ?? 800);
      // Whatever it gets is luck: it counts for no coverage (coverage.ts).
      const luck = asking(`REST fuzzer, seed ${run.seed}`, "any");
      await fuzz(
        where,
        base,
        request(target.ids),
        async (req) => {
          const res = await send(`${base}${req.url}`, {
            method: req.method,
            headers: { ...req.headers, ...luck },
            body: req.body,
            redirect: "manual",
          });
          const text = await responseText(res);
          const what = `${describeRequest(req)}\n→ ${res.status} ${text.slice(0, 500)}`;
          // A stub not filled in yet is pending, not a failure (pending.ts).
          if (isStubAnswer(res.status, text)) {
            stubsMet.add(req.op.operationId);
            where.stubs.add(req.op.operationId);
            return res.status;
          }
          assert.ok(res.status < 500, `${req.op.operationId} failed with ${res.status} (a server error): ${what}`);
          assert.ok(
            declaredFor(req.op.responses, res.status),
            `${req.op.operationId} does not declare ${res.status}: ${what}`,
          );
          const type = res.headers.get("content-type")?.split(";")[0];
          let parsed: unknown;
          // JSON is parsed; other bodies (an avatar's image) are checked for their declared media type below.
          if (text) parsed = type && /json/.test(type) ? JSON.parse(text) : text;
          if (req.method !== "HEAD") {
            const mismatch = checkResponse(
              req.op.responses,
              { status: res.status, body: parsed, headers: Object.fromEntries(res.headers) },
              type,
            );
            assert.equal(mismatch, undefined, `${mismatch?.detail}: ${what}`);
          }
          return res.status;
        },
        { ...run, timeLimitMs: options.timeLimitMs ?? 25_000 },
      );
    });
  });
}
