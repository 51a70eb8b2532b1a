// What both fuzzers share: values from the JSON Schemas of openapi.yaml (valid ones, and the same mutated: wrong
// types, nulls, huge and odd strings), the ids of every state a resource can be in, tokens of every kind, and a
// seeded run that prints how to replay its failure (FUZZ_SEED, FUZZ_PATH, FUZZ_RUNS).
import assert from "node:assert/strict";
import { isAbsolute, relative } from "node:path";
import fc from "fast-check";
import type { Context } from "mocha";
import { after, before } from "../pending.js";
import { isObject, type JsonObject } from "../../codegen/load/spec.js";
import type { AppDefinition } from "twinspec/internals";
import { startServer, type TestServer, type TestServerOptions } from "../server.js";
import { specOf, type Spec } from "../spec.js";
import { token } from "../tokens.js";

/**
 * An arbitrary built when it first generates: fast-check builds a string arbitrary's shrinking tables when it is made
 * (for the binary unit, a map of every code point), which every process importing the kit would pay without fuzzing.
 */
class Lazy<T> extends fc.Arbitrary<T> {
  #built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  get #arbitrary(): fc.Arbitrary<T> {
    return (this.#built ??= this.build());
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#arbitrary.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#arbitrary.shrink(value, context);
  }
}

/** Strings a validator and a database may choke on: empty, blanks, control characters, other scripts, emoji, escapes, injections. */
export const oddString: fc.Arbitrary<string> = new Lazy(() =>
  fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "\t\n",
      "\u0000",
      "\u202e",
      "null",
      "undefined",
      "0",
      "-1",
      "1e309",
      "NaN",
      "true",
      "{}",
      "[]",
      "'; drop table users; --",
      "%00",
      "%zz",
      "../../etc/passwd",
      "<script>",
      "\ud83d\ude00",
      "\ud800",
      "a\u0301",
      "ℌ𝔢𝔩𝔩𝔬",
      "ﷺ",
      "\\",
      '"',
      "__proto__",
      "constructor",
    ),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.string({ unit: "grapheme", maxLength: 40 }),
  ),
);

/** Up to `max` characters, sometimes many more than any schema allows. */
export const hugeString = (max: number) =>
  fc
    .integer({ min: 201, max })
    .chain((n) => fc.constantFrom("x", "é", "😀", "a ").map((c) => c.repeat(Math.ceil(n / c.length)).slice(0, n)));

type StringUnit = "grapheme-ascii" | "grapheme-composite";

/** readOnly, on the property or (3.1) beside its $ref, or on what the $ref names. */
const readOnly = (resolve: Spec["resolve"], raw: unknown) =>
  isObject(raw) && (raw.readOnly === true || (raw.readOnly === undefined && resolve(raw).readOnly === true));

/**
 * Values valid against a schema of openapi.yaml (the keywords it uses); strings of printable ASCII, or of `unit`'s
 * characters. A nullable schema (`type: [..., "null"]`, 3.0's `nullable`) gives null now and then.
 */
export function valid(
  resolve: Spec["resolve"],
  raw: unknown,
  depth = 0,
  unit: StringUnit = "grapheme-ascii",
): fc.Arbitrary<unknown> {
  const s = resolve(raw);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const nullable = s.nullable === true || (Array.isArray(s.type) && s.type.includes("null"));
  const value = nonNull(resolve, s, depth, unit);
  return nullable ? fc.option(value, { nil: null }) : value;
}

/** The object schema with its allOf members' properties and required ones merged in. */
function merged(resolve: Spec["resolve"], s: JsonObject): JsonObject {
  if (!Array.isArray(s.allOf)) return s;
  const parts = [s, ...s.allOf.map((part) => merged(resolve, resolve(part)))];
  return {
    ...s,
    type: "object",
    properties: Object.assign({}, ...parts.map((p) => (isObject(p.properties) ? p.properties : {}))),
    required: parts.flatMap((p) => (Array.isArray(p.required) ? p.required : [])),
  };
}

function nonNull(resolve: Spec["resolve"], raw: JsonObject, depth: number, unit: StringUnit): fc.Arbitrary<unknown> {
  const s = merged(resolve, raw);
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (branches?.length && depth <= 4) return fc.oneof(...branches.map((b) => valid(resolve, b, depth + 1, unit)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      // A readOnly property is refused in a request: a valid body has none.
      const props = Object.fromEntries(
        Object.entries(isObject(s.properties) ? s.properties : {}).filter(([, v]) => !readOnly(resolve, v)),
      );
      const required = Array.isArray(s.required) ? (s.required as string[]).filter((k) => k in props) : [];
      if (depth > 4) return fc.constant(Object.fromEntries(required.map((k) => [k, null])));
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valid(resolve, v, depth + 1, unit)])),
        { requiredKeys: required },
      );
      const min = typeof s.minProperties === "number" ? s.minProperties : 0;
      return min > 0 ? record.filter((o) => Object.keys(o).length >= min) : record;
    }
    case "array":
      return fc.array(valid(resolve, s.items, depth + 1, unit), {
        minLength: Number(s.minItems ?? 0),
        maxLength: Math.min(Number(s.maxItems ?? 4), 4),
      });
    case "integer": {
      const step = typeof s.multipleOf === "number" && Number.isInteger(s.multipleOf) ? s.multipleOf : 1;
      const min = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : Number(s.minimum ?? -1e6);
      const max = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum - 1 : Number(s.maximum ?? 1e6);
      return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((n) => n * step);
    }
    case "number":
      return fc.double({
        min: Number(s.exclusiveMinimum ?? s.minimum ?? -1e6),
        max: Number(s.exclusiveMaximum ?? s.maximum ?? 1e6),
        minExcluded: typeof s.exclusiveMinimum === "number",
        maxExcluded: typeof s.exclusiveMaximum === "number",
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "string":
      if (s.format === "email") return fc.emailAddress().filter((e) => e.length <= Number(s.maxLength ?? 254));
      if (s.format === "date-time")
        return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === "date")
        return fc
          .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (s.format === "uuid") return fc.uuid();
      if (s.format === "uri" || s.format === "url") return fc.webUrl();
      if (s.format === "hostname") return fc.domain();
      if (s.format === "ipv4") return fc.ipV4();
      if (s.format === "ipv6") return fc.ipV6();
      if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
      return fc.string({
        unit,
        minLength: Number(s.minLength ?? 0),
        maxLength: Math.max(Number(s.minLength ?? 0), Math.min(Number(s.maxLength ?? 20), 20)),
      });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of the wrong kind for a schema, or null, or a string no schema would take. */
export const wrong: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1e21, -0, Number.MAX_SAFE_INTEGER + 2),
  oddString,
  hugeString(5_000),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
);

/** A valid value for the schema, then maybe mutated: a field dropped, added, of a wrong type or null; or all wrong. */
export function mutated(resolve: Spec["resolve"], raw: unknown): fc.Arbitrary<unknown> {
  const s = resolve(raw);
  const base = valid(resolve, s);
  const props = isObject(s.properties) ? Object.keys(s.properties) : [];
  return fc.oneof(
    { weight: 3, arbitrary: base },
    { weight: 1, arbitrary: wrong },
    ...(props.length
      ? [
          { weight: 2, arbitrary: fc.tuple(base, fc.constantFrom(...props)).map(([v, k]) => without(v, k)) },
          {
            weight: 2,
            arbitrary: fc
              .tuple(base, fc.constantFrom(...props), wrong)
              .map(([v, k, w]) => ({ ...(v as object), [k]: w })),
          },
          {
            weight: 1,
            arbitrary: fc
              .tuple(
                base,
                fc.oneof(oddString, fc.constantFrom("__proto__", "constructor", "extra")),
                fc.jsonValue({ maxDepth: 2 }),
              )
              .map(([v, k, w]) => ({ ...(v as object), [k]: w })),
          },
        ]
      : []),
    ...(Array.isArray(s.required) || s.type === "array"
      ? [{ weight: 1, arbitrary: fc.constantFrom({}, [], [{}], [null]) }]
      : []),
  );
}

const without = (v: unknown, k: string) => {
  const copy = { ...(v as Record<string, unknown>) };
  delete copy[k];
  return copy;
};

/** The ids a path parameter or argument may name, for a resource in every state; and ids that name nothing. */
export interface Ids {
  /** by id name: live ones the owner holds, another owner's, deleted, moved */
  byName: Record<string, string[]>;
  /** the owner's live ones, by id name */
  own: Record<string, string>;
  tokens: Record<string, string>;
  owner: string;
  /** by id name: a well-formed id (the resource's prefix) that names nothing */
  unknown: Record<string, string>;
}

/**
 * Three worlds (spec.ts): the owner's, another owner's, and one whose owner is deleted (what it owned answers 410
 * with it); the other world's instances deleted where they can be by themselves; instances of the self-owned
 * resource acted on by an operation whose body names another instance of it (a merge: their URLs answer 301).
 */
async function world(definition: AppDefinition, base: string): Promise<Ids> {
  const spec = specOf(definition);
  const { operations, resources, principals } = spec;
  const mine = await spec.newWorld(base);
  const theirs = await spec.newWorld(base);
  const gone = await spec.newWorld(base);
  const byName: Record<string, string[]> = {};
  const add = (name: string, id: string | undefined) => id && (byName[name] ??= []).push(id);
  for (const w of [mine, theirs, gone]) for (const [name, id] of Object.entries(w.ids)) add(name, id);
  const deleterOf = (r: { path: string }) => operations.find((o) => o.method === "DELETE" && o.path === r.path);
  // Deleted: the third world's owner, and the second one's owned instances that can be deleted by themselves.
  for (const [tag, r] of Object.entries(resources)) {
    const del = deleterOf(r);
    if (del && !principals.includes(tag) && r.owner !== "none") await spec.send(base, del, theirs.ids);
  }
  for (const principal of principals) {
    const del = deleterOf(resources[principal]);
    if (del) await spec.send(base, del, gone.ids);
  }
  // Moved: an instance of a self-owned resource that an operation on it folds into another of its kind (its body
  // names one: a property whose example has the resource's id prefix), made and folded into the owner's.
  for (const principal of principals) {
    const r = resources[principal];
    for (const op of operations.filter(
      (o) => o.method === "POST" && o.path.startsWith(`${r.path}/`) && pathParams(o.path).length === 1,
    )) {
      const sample = spec.sampleBody(op)?.body;
      const into = isObject(sample)
        ? Object.keys(sample).find((k) => typeof sample[k] === "string" && sample[k].startsWith(`${r.idPrefix}_`))
        : undefined;
      if (!into) continue;
      const moved = (await spec.send(base, spec.creatorOf(principal), {})).json?.[r.id] as string;
      await spec.send(base, op, { [r.id]: moved }, { body: { ...(sample as object), [into]: mine.ids[r.id] } });
      add(r.id, moved);
    }
  }
  const ownScopes = Object.keys(definition.contract.scopes).filter((x) => x !== "admin");
  const owned = ownScopes.join(" ");
  const tokens = {
    admin: await token("fuzz-admin", "admin"),
    owner: await token(mine.owner, owned),
    other: await token(theirs.owner, owned),
    readOnly: await token(mine.owner, ownScopes.filter((x) => /read/.test(x)).join(" ")),
    noScopes: await token(mine.owner, ""),
    expired: await token(mine.owner, owned, -60),
  };
  const unknown = Object.fromEntries(
    Object.values(resources).map((r) => [r.id, `${r.idPrefix}_0000000000000000000000`]),
  );
  return { byName, own: mine.ids, tokens, owner: mine.owner, unknown };
}

const pathParams = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** An id for a path parameter or argument: one of every state, or one that names nothing, or no id at all. */
export const idOf = (ids: Ids, name: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constant(ids.own[name] ?? "nothing_here") },
    {
      weight: 3,
      arbitrary: ids.byName[name]?.length ? fc.constantFrom(...ids.byName[name]) : fc.constant("nothing_here"),
    },
    { weight: 1, arbitrary: fc.constantFrom("nothing_here", ids.unknown[name] ?? "nothing_here", "-", "_") },
    { weight: 1, arbitrary: fc.oneof(oddString, hugeString(400)) },
  );

/** An Authorization header of every kind: valid tokens of each role, none, expired, malformed, another scheme. */
export const authorization = (ids: Ids): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(ids.tokens.admin, ids.tokens.owner).map((t) => `Bearer ${t}`) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(ids.tokens.other, ids.tokens.readOnly, ids.tokens.noScopes).map((t) => `Bearer ${t}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        `Bearer ${ids.tokens.expired}`,
        "Bearer",
        "Bearer ",
        "Bearer x.y.z",
        "Basic YWRtaW46YWRtaW4=",
        `bearer ${ids.tokens.admin}`,
        `Bearer ${ids.tokens.admin}x`,
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiIsInNjb3BlIjoiYWRtaW4ifQ.",
      ),
    },
    { weight: 1, arbitrary: oddString.map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, "")}`) },
  );

/** Header values as a client may send them (HTTP allows only visible ASCII, space and tab in them). */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "*",
    'W/"v1"',
    '"v1"',
    '"v999"',
    "Tue, 24 Nov 2026 10:00:00 GMT",
    "yesterday",
    "return=minimal",
    "return=representation",
    "respond-async, wait=5",
    "code=500",
    "x".repeat(300),
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
);

export interface FuzzSettings {
  seed: number;
  numRuns: number;
  path?: string;
}

/** FUZZ_SEED, FUZZ_RUNS and FUZZ_PATH (or another prefix's), or a new seed and the default number of runs. */
export function settings(defaultRuns: number, prefix = "FUZZ"): FuzzSettings {
  const env = (name: string) => process.env[`${prefix}_${name}`];
  const seed = env("SEED") ? Number(env("SEED")) : Math.floor(Math.random() * 2 ** 31);
  return {
    seed,
    numRuns: Number(env("RUNS") ?? defaultRuns),
    ...(env("PATH") ? { path: env("PATH") } : {}),
  };
}

/** A server for one fuzz suite, with a world of every state (mocha hooks). */
export function fuzzTarget(definition: AppDefinition, bodyLimit: number, options: TestServerOptions = {}) {
  const target = {} as { server: TestServer; ids: Ids };
  before(async () => {
    target.server = await startServer(definition, { ...options, bodyLimit });
    target.ids = await world(definition, target.server.url);
  });
  after(() => target.server?.close());
  return target;
}

/** A connection that failed before any answer came: reset, closed by the other side, refused. */
const CONNECTION_FAILED = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "ECONNREFUSED"]);

function connectionFailure(error: unknown): string | undefined {
  const cause =
    error instanceof TypeError ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code && CONNECTION_FAILED.has(cause.code)
    ? `${cause.message ?? cause.code} (${cause.code})`
    : undefined;
}

/**
 * fetch, sent a second time when the connection failed before any answer. A keep-alive connection that the server
 * closed as idle while the fuzzer was busy (building its first values on a loaded machine) fails the request written
 * on it, which HTTP clients retry (RFC 9112 §9.3.1); a fuzzer judges each answer alone, so a request sent twice
 * changes no verdict. A second failure is the server's, and names its cause (fetch's own message is "fetch failed").
 */
export async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!connectionFailure(error)) throw error;
  }
  try {
    return await fetch(url, init);
  } catch (error) {
    const failure = connectionFailure(error);
    throw failure ? new Error(`the connection failed twice, with no answer: ${failure}`, { cause: error }) : error;
  }
}

const ready = async (base: string) =>
  assert.equal((await send(`${base}/readyz`, {})).status, 200, "the server is not ready any more");

/** Which fuzzer runs, from which test file, and what it met that is still a stub. */
export interface FuzzRun {
  /** the test file (FuzzOptions.file, else the mocha test's own), relative to the working folder */
  file: string | undefined;
  /** the suite's title, which the replay command greps for: only that fuzzer runs again */
  suite: string;
  /** the operations and fields that answered as stubs (501 / NOT_IMPLEMENTED): pending, reported at the end */
  stubs: Set<string>;
}

/**
 * The test file a fuzzer names in its replay command: `given`, else the file of the mocha test running it.
 *
 * @param given - FuzzOptions.file
 * @param context - the mocha test's `this`
 */
export function testFile(given: string | undefined, context: Context): string | undefined {
  const file = given ?? context.test?.file;
  return file && isAbsolute(file) ? relative(process.cwd(), file) : file;
}

/**
 * Runs the property (`check` sends one request and answers its status); /readyz must stay 200 all along. A failure
 * says which request broke what, and the command that replays it.
 */
export async function fuzz<T>(
  run: FuzzRun,
  base: string,
  arbitrary: fc.Arbitrary<T>,
  check: (value: T) => Promise<number>,
  options: FuzzSettings & { timeLimitMs: number },
) {
  const started = Date.now();
  const statuses = new Map<number, number>();
  const replay = (seed: number, path?: string) =>
    `FUZZ_SEED=${seed}${path ? ` FUZZ_PATH=${path}` : ""} npx mocha ${run.file ?? ""} --grep ${JSON.stringify(run.suite)}`.replace(
      /\s+/g,
      " ",
    );
  // Printed first, so that a run that never ends still says how to replay it.
  console.log(`      seed ${options.seed} (replay: ${replay(options.seed)})`);
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      const status = await check(value);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if ([...statuses.values()].reduce((a, b) => a + b) % 50 === 0) await ready(base);
    }),
    {
      seed: options.seed,
      numRuns: options.numRuns,
      path: options.path,
      // The server keeps state between runs: shrinking would replay against another world. Stop at the first failure.
      endOnFailure: true,
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    },
  );
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${run.suite}, seed ${details.seed}: ${cause}\n\n${fc.defaultReportMessage(details)}\nReplay: ${replay(details.seed, details.counterexamplePath ?? undefined)}`,
    );
  }
  await ready(base);
  console.log(
    `      ${details.numRuns} requests in ${Date.now() - started} ms, seed ${details.seed}${details.interrupted ? " (stopped at the time limit)" : ""}`,
  );
  if (run.stubs.size)
    console.log(`      not yet implemented (answered as stubs, pending, not fuzzed): ${[...run.stubs].join(", ")}`);
  console.log(
    `      statuses: ${[...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status}×${n}`)
      .join(" ")}`,
  );
}
