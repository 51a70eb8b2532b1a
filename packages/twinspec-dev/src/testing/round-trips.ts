// Write-read round trips, generated from the specs: for every resource with a reader (its GET) and writers (its
// creators, its PUT, its PATCH; round-trip-plan.ts), bodies generated from the writer's schema (fast-check, seeded) are
// written over REST — and over the paired GraphQL mutation — and every property written reads back as it was sent:
// in the writer's answer, over REST (the GET) and over GraphQL (the GET's paired field). After a merge patch, the
// writable properties it leaves out keep their values. What the server sets (ids, timestamps, owners, computed values,
// readOnly properties) is refused when sent, or ignored. A failure is shrunk to a minimal body and names the
// operation, the property, the transport, the request and the seed (ROUND_TRIP_SEED, ROUND_TRIP_PATH replay it).
import fc from "fast-check";
import { describe } from "mocha";
import { getNamedType, isObjectType, type GraphQLObjectType } from "graphql";
import type { AppDefinition } from "twinspec/internals";
import type { JsonObject } from "../codegen/load/spec.js";
import { call, gql, type Reply } from "./client.js";
import { asking } from "./coverage.js";
import { settings, testFile, valid } from "./fuzz/support.js";
import { after, before, it, NotYetImplemented } from "./pending.js";
import { differences, shown, type Difference } from "./round-trip-compare.js";
import {
  roundTripsOf,
  selectionOf,
  type PairedField,
  type ResourceRoundTrips,
  type Writer,
} from "./round-trip-plan.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { pathParams, specOf, urlOf } from "./spec.js";
import { newWorld, specReader, type Send } from "./world.js";

/** How the round trips run; every field is optional. */
export interface RoundTripOptions {
  /** the test file, named in the command that replays a failure (default none: the command names no file) */
  file?: string;
  /** bodies generated per writer and transport (ROUND_TRIP_RUNS overrides; default 8) */
  runs?: number;
  /** the longest one writer's bodies, shrinking included, may run (default 30 s) */
  timeLimitMs?: number;
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

/** Where a value was read: the transport, what read it ("getNote", "createNote's answer", "Query.note"), the request. */
interface Place {
  transport: "REST" | "GraphQL";
  via: string;
  /** the request that read it ("GET /notes/not_…", the query) */
  detail?: string;
}

/** One place a property did not read back as written, and the difference. */
type Miss = Place & Difference;

/** What one generated body did: round-tripped (the properties sent), refused (a declared status or error code), or failed. */
type Outcome = { kind: "round-tripped"; props: string[] } | { kind: "refused"; why: string; detail: string };

class RoundTripFailure extends Error {
  override name = "RoundTripFailure";
}

/** A stub answered (client.ts throws NotYetImplemented): by name, as a spec file may load another copy of the kit. */
const isStub = (error: unknown) => (error as Error | undefined)?.name === "NotYetImplemented";

const propertyOf = (pointer: string) => pointer.split("/")[1]?.replace(/~1/g, "/").replace(/~0/g, "~") ?? "";

/**
 * Registers the write-read round trips (a mocha suite): for every resource with a reader and writers, bodies
 * generated from each writer's schema are written over REST and over its paired mutation, and read back over REST and
 * GraphQL; what the server sets, sent, is refused or ignored. Nothing is registered when no resource has both.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - bodies per writer, time limit, the test file and the server's options (`RoundTripOptions`); default none
 */
export function describeRoundTrips(definition: AppDefinition, options: RoundTripOptions = {}): void {
  const plans = roundTripsOf(definition);
  if (plans.length === 0) return;
  const spec = specOf(definition);
  const { resolve } = spec;
  const run = settings(options.runs ?? 8, "ROUND_TRIP");
  /** The test file the replay command names: RoundTripOptions.file, else the one registering the suite. */
  let file = options.file;
  /** The command that replays a run; with a test's title, that test alone (its path means nothing to the others). */
  const replay = (seed: number, path?: string, title?: string) =>
    `ROUND_TRIP_SEED=${seed}${path ? ` ROUND_TRIP_PATH=${path}` : ""} npx mocha ${file ?? ""}${title ? ` --fgrep '${title.replace(/'/g, "'\\''")}'` : ""}`.replace(
      / +/g,
      " ",
    );

  describe("write-read round trips: what a client writes reads back as written, over REST and GraphQL", function () {
    this.timeout(Math.max(120_000, (options.timeLimitMs ?? 30_000) * 3));
    let s: TestServer;
    let world: ReturnType<typeof newWorld> | undefined;
    before(async function () {
      file = testFile(options.file, this);
      // Printed first, so that a run that never ends still says how to replay it.
      console.log(`    seed ${run.seed} (replay: ${replay(run.seed)})`);
      s = await startServer(definition, options.server);
    });
    after(() => s?.close());

    for (const plan of plans) {
      for (const writer of plan.writers) {
        const rest = `${writer.op.operationId} (${writer.op.method} ${writer.op.path})`;
        const overRest = `${rest}: a ${writer.kind} over REST reads back over REST and GraphQL`;
        it(overRest, () => roundTrip(plan, writer, "rest", overRest));
        const overGraphql = `${writer.mutation?.coordinate} (paired with ${writer.op.operationId}): a ${writer.kind} over GraphQL reads back over REST and GraphQL`;
        if (writer.mutation) it(overGraphql, () => roundTrip(plan, writer, "graphql", overGraphql));
        if (writer.serverSet.length)
          it(`${rest}: what the server sets (${writer.serverSet.join(", ")}) is ${writer.closed ? "refused" : "refused or ignored"} when sent`, () =>
            serverSetProbe(plan, writer));
      }
    }

    /** A body for `writer`'s schema, each property named like a resource's id set to the world's instance. */
    const withIds = (body: unknown, ids: Record<string, string>, writer: Writer) => {
      if (!body || typeof body !== "object" || Array.isArray(body)) return body;
      const copy = { ...(body as Record<string, unknown>) };
      for (const key of Object.keys(copy))
        if (key !== writer.info.id && spec.resourceOfParam(key) && ids[key]) copy[key] = ids[key];
      return copy;
    };

    /**
     * A new instance of the resource, made by its first creator that is no stub, with its example body (or a
     * generated one): its id. Every creator a stub: NotYetImplemented (pending).
     */
    async function make(plan: ResourceRoundTrips, writer: Writer, ids: Record<string, string>): Promise<string> {
      let stub: NotYetImplemented | undefined;
      for (const creator of plan.creators) {
        const sample =
          spec.sampleBody(creator)?.body ??
          fc.sample(valid(resolve, spec.bodySchema(creator) ?? {}), { numRuns: 1, seed: run.seed })[0];
        let made: Reply;
        try {
          made = await spec.send(s.url, creator, ids, {
            body: withIds(sample, ids, writer),
            expect: [201],
            step: `round trip: a ${plan.resource} to ${writer.kind} (${creator.operationId})`,
          });
        } catch (error) {
          if (!isStub(error)) throw error;
          stub ??= error as NotYetImplemented;
          continue;
        }
        if (made.status !== 201)
          throw new RoundTripFailure(
            `making a ${plan.resource} to ${writer.kind} with ${creator.operationId}: ${made.status} ${made.text.slice(0, 300)}`,
          );
        return idFrom(plan, made.json, made.headers.get("location"));
      }
      throw stub ?? new RoundTripFailure(`no operation creates a ${plan.resource} (201) to ${writer.kind}`);
    }

    /**
     * The ids of the instances `writer` needs made first (its path's parents, and the resources its body names), from
     * one world of every resource that can be made; one whose creator is a stub makes the writer pending.
     */
    async function parentsOf(writer: Writer, plan: ResourceRoundTrips, fresh = false): Promise<Record<string, string>> {
      const made = await (fresh
        ? newWorld(definition, specReader(spec.doc), sendForWorld)
        : (world ??= newWorld(definition, specReader(spec.doc), sendForWorld)));
      const names = [
        ...pathParams(writer.op.path),
        ...(writer.kind === "create" ? [] : plan.creators.flatMap((c) => pathParams(c.path))),
        ...Object.keys(writer.schema.properties ?? {}),
      ].filter((name) => name !== plan.info.id && made.byIdName.has(name));
      for (const name of new Set(names)) {
        if (made.ids[name]) continue;
        const tag = made.byIdName.get(name)!;
        const why = made.missing.get(tag) ?? "not made";
        // Named by the stub, as every stub the kit meets (the coverage gate lists them).
        if (/ 501$/.test(why)) throw new NotYetImplemented(why.split(" ")[0]);
        throw new RoundTripFailure(`${writer.op.operationId} needs a ${tag}, which could not be made: ${why}`);
      }
      return made.ids;
    }

    /** How the world is made: the kit's send, a stub's answer kept as a 501 (world.ts notes what could not be made). */
    const sendForWorld: Send = async (op, ids, init = {}) => {
      try {
        return await spec.send(s.url, op, ids, {
          ...(init.body === undefined ? {} : { body: init.body }),
          expect: [201, 202],
          step: `round trip: a world (${op.operationId})`,
        });
      } catch (error) {
        if (!isStub(error)) throw error;
        return { status: 501, headers: new Headers(), text: (error as Error).message, json: undefined };
      }
    };

    const idFrom = (plan: ResourceRoundTrips, body: unknown, location: string | null | undefined) => {
      const id = (body as Record<string, unknown> | undefined)?.[plan.info.id];
      return typeof id === "string" ? id : decodeURIComponent(location?.split("/").pop() ?? "");
    };

    /** A GraphQL document calling `paired` once (as `answer`), one variable per argument `values` gives. */
    const documentOf = (
      root: "query" | "mutation",
      paired: PairedField,
      values: Record<string, unknown>,
      selection: string,
    ) => {
      const args = paired.field.args.filter((a) => values[a.name] !== undefined);
      const declared = args.length ? `(${args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ")})` : "";
      const passed = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(", ")})` : "";
      return {
        query: `${root}${declared} { answer: ${paired.field.name}${passed}${selection ? ` { ${selection} }` : ""} }`,
        variables: Object.fromEntries(args.map((a) => [a.name, values[a.name]])),
      };
    };

    /** The arguments of a paired field: those named like path parameters from `ids`, the body as its rules carry it. */
    const argumentsOf = (paired: PairedField, ids: Record<string, string>, body?: unknown) => {
      const values: Record<string, unknown> = {};
      for (const name of paired.rules.path?.args ?? []) values[name] = ids[name];
      const carried = paired.rules.body;
      if (carried && body !== undefined) {
        if ("arg" in carried) values[carried.arg] = body;
        else for (const name of carried.args) values[name] = (body as Record<string, unknown>)[name];
      }
      return values;
    };

    const objectType = (paired: PairedField): GraphQLObjectType | undefined => {
      const named = getNamedType(paired.field.type);
      return isObjectType(named) ? named : undefined;
    };

    /**
     * Reads the instance back over REST and GraphQL (and takes the writer's own answer) and compares each property of
     * `expected` with what each says.
     */
    async function readBack(
      plan: ResourceRoundTrips,
      ids: Record<string, string>,
      expected: Record<string, unknown>,
      answers: (Place & { body: unknown })[],
    ): Promise<Miss[]> {
      const { reader } = plan;
      const misses: Miss[] = [];
      const compare = (place: Place, read: unknown, only?: string[]) => {
        const sent = only ? Object.fromEntries(Object.entries(expected).filter(([k]) => only.includes(k))) : expected;
        for (const d of differences(resolve, reader.schema, sent, read)) misses.push({ ...place, ...d });
      };
      for (const { body, ...place } of answers) compare(place, body);
      const url = urlOf(reader.op, ids);
      const got = await call(`${s.url}${url}`, {
        headers: asking(`round trip: reading back a ${plan.resource} (${reader.op.operationId})`, [200]),
      });
      const where: Place = { transport: "REST", via: reader.op.operationId, detail: `GET ${url}` };
      if (got.status !== 200)
        misses.push({ ...where, pointer: "", sent: expected, read: `${got.status} ${got.text.slice(0, 200)}` });
      else compare(where, got.json);
      const type = reader.query && objectType(reader.query);
      if (reader.query && type) {
        const { selection, fields } = selectionOf(resolve, type, reader.schema, Object.keys(expected));
        if (fields.length) {
          const doc = documentOf("query", reader.query, argumentsOf(reader.query, ids), selection);
          const answer = await gql(s.url, doc.query, doc.variables);
          const at: Place = { transport: "GraphQL", via: reader.query.coordinate, detail: doc.query };
          if (answer.json?.errors?.length || !answer.json?.data?.answer)
            misses.push({
              ...at,
              pointer: "",
              sent: expected,
              read: answer.json?.errors ?? answer.json?.data?.answer ?? null,
            });
          else compare(at, answer.json.data.answer, fields);
        }
      }
      return misses;
    }

    /** The outcome of a REST status: a declared refusal (4xx), or a failure (undeclared, 5xx). */
    const refusal = (writer: Writer, request: string, res: Reply): Outcome => {
      if (res.status >= 500 || !(String(res.status) in writer.op.responses))
        throw new RoundTripFailure(
          `${writer.op.operationId} answered ${res.status}${res.status < 500 ? ", which openapi.yaml does not declare for it" : ""}\n  request: ${request}\n  answer: ${res.text.slice(0, 300)}`,
        );
      return {
        kind: "refused",
        why: String(res.status),
        detail: `${request} → ${res.status} ${res.text.slice(0, 200)}`,
      };
    };

    /** One generated body written over `transport` and read back; throws a RoundTripFailure naming what differs. */
    async function oneCase(
      plan: ResourceRoundTrips,
      writer: Writer,
      transport: "rest" | "graphql",
      body: Record<string, unknown>,
      parents: Record<string, string>,
    ): Promise<Outcome> {
      let ids = { ...parents };
      if (writer.kind !== "create") ids = { ...ids, [plan.info.id]: await make(plan, writer, ids) };
      // What a merge patch leaves out stays: the writable properties as they were before it.
      let before: Record<string, unknown> = {};
      if (writer.kind === "merge") {
        const got = await call(`${s.url}${urlOf(plan.reader.op, ids)}`, {
          headers: asking(`round trip: a ${plan.resource} before a merge patch (${plan.reader.op.operationId})`, [200]),
        });
        before = Object.fromEntries(
          writer.writable.filter((p) => got.json?.[p] !== undefined).map((p) => [p, got.json[p]]),
        );
      }
      const sent = Object.fromEntries(Object.entries(body).filter(([k]) => writer.writable.includes(k)));
      const expected = writer.kind === "merge" ? { ...before, ...sent } : sent;
      const answers: (Place & { body: unknown })[] = [];
      let request: string;
      if (transport === "rest") {
        const url = urlOf(writer.op, ids);
        request = `${writer.op.method} ${url} ${JSON.stringify(body)}`;
        const ok = Object.keys(writer.op.responses)
          .filter((st) => /^2\d\d$/.test(st))
          .map(Number);
        const res = await call(`${s.url}${url}`, {
          method: writer.op.method,
          headers: {
            "content-type": writer.mediaType,
            ...asking(`round trip: a ${writer.kind} with a generated body (${writer.op.operationId})`, ok),
          },
          body: JSON.stringify(body),
        });
        if (res.status < 200 || res.status > 299) return refusal(writer, request, res);
        if (writer.kind === "create") ids[plan.info.id] = idFrom(plan, res.json, res.headers.get("location"));
        if (res.json && typeof res.json === "object")
          answers.push({
            transport: "REST",
            via: `${writer.op.operationId}'s answer`,
            detail: String(res.status),
            body: res.json,
          });
      } else {
        const mutation = writer.mutation!;
        const type = objectType(mutation);
        const { selection } = type
          ? selectionOf(resolve, type, plan.reader.schema, [plan.info.id, ...writer.writable])
          : { selection: "" };
        const doc = documentOf("mutation", mutation, argumentsOf(mutation, ids, body), selection);
        request = `${doc.query} variables ${JSON.stringify(doc.variables)}`;
        const res = await gql(s.url, doc.query, doc.variables);
        const errors = (res.json?.errors ?? []) as { message?: string; extensions?: { code?: string } }[];
        if (errors.length || res.status >= 300) {
          const codes = errors.map((e) => e.extensions?.code ?? "no code");
          if (res.status >= 500 || codes.includes("INTERNAL_SERVER_ERROR") || !errors.length)
            throw new RoundTripFailure(
              `${mutation.coordinate} failed (${res.status})\n  request: ${request}\n  answer: ${res.text.slice(0, 300)}`,
            );
          return {
            kind: "refused",
            why: codes.join("+"),
            detail: `${request} → ${errors.map((e) => `${e.extensions?.code}: ${e.message}`).join("; ")}`,
          };
        }
        const answer = res.json?.data?.answer;
        if (writer.kind === "create") ids[plan.info.id] = idFrom(plan, answer, undefined);
        if (answer && typeof answer === "object")
          answers.push({ transport: "GraphQL", via: `${mutation.coordinate}'s answer`, body: answer });
      }
      const misses = await readBack(plan, ids, expected, answers);
      if (misses.length) throw new RoundTripFailure(describeMisses(writer, transport, misses, request));
      return { kind: "round-tripped", props: Object.keys(sent) };
    }

    function describeMisses(writer: Writer, transport: "rest" | "graphql", misses: Miss[], request: string) {
      const by =
        transport === "rest"
          ? `${writer.op.operationId} (${writer.op.method} ${writer.op.path}), a ${writer.kind} over REST,`
          : `${writer.mutation!.coordinate}, a ${writer.kind} over GraphQL,`;
      const props = [...new Set(misses.map((m) => propertyOf(m.pointer) || "the resource"))];
      const places = (["REST", "GraphQL"] as const)
        .map((t) => [t, [...new Set(misses.filter((m) => m.transport === t).map((m) => m.via))]] as const)
        .filter(([, vias]) => vias.length)
        .map(([t, vias]) => `${t} (${vias.join(", ")})`);
      const lines = misses.map((m) => {
        const prop = propertyOf(m.pointer);
        const at = m.pointer && m.pointer !== `/${prop}` ? ` at ${m.pointer}` : "";
        return `  - ${prop ? `"${prop}"${at}` : "the resource"}: sent ${shown(m.sent)}; ${m.via} over ${m.transport}${m.detail ? ` (${m.detail})` : ""} reads ${shown(m.read)}`;
      });
      return [
        `${props.map((p) => (p === "the resource" ? p : `"${p}"`)).join(", ")} written by ${by} does not read back as written over ${places.join(" and ")}`,
        ...lines,
        `  request: ${request}`,
      ].join("\n");
    }

    async function roundTrip(plan: ResourceRoundTrips, writer: Writer, transport: "rest" | "graphql", title: string) {
      const parents = await parentsOf(writer, plan);
      // A create whose body names another resource (a loan's book) may use it up (its last copy): each body gets
      // instances of its own, so that one body's write does not refuse the next.
      const consumes =
        writer.kind === "create" &&
        Object.keys(writer.schema.properties ?? {}).some((k) => k !== plan.info.id && spec.resourceOfParam(k));
      const arbitrary = valid(resolve, writer.schema, 0, "grapheme-composite");
      const outcomes: Outcome[] = [];
      let stub: NotYetImplemented | undefined;
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (generated) => {
          if (stub) return;
          try {
            const ids = consumes ? await parentsOf(writer, plan, true) : parents;
            const body = withIds(generated, ids, writer) as Record<string, unknown>;
            outcomes.push(await oneCase(plan, writer, transport, body, ids));
          } catch (error) {
            if (isStub(error)) stub = error as NotYetImplemented;
            else throw error;
          }
        }),
        {
          seed: run.seed,
          numRuns: run.numRuns,
          path: run.path,
          interruptAfterTimeLimit: options.timeLimitMs ?? 30_000,
          markInterruptAsFailure: false,
        },
      );
      if (stub) throw stub;
      if (details.failed) {
        const cause =
          details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        throw new RoundTripFailure(
          `${cause}\n  (the request shrunk to the smallest that fails, after ${details.numShrinks} shrinks)\n  seed ${details.seed}\n  replay: ${replay(details.seed, details.counterexamplePath ?? undefined, title)}`,
        );
      }
      const tripped = outcomes.filter((o) => o.kind === "round-tripped");
      const refused = outcomes.filter((o): o is Extract<Outcome, { kind: "refused" }> => o.kind === "refused");
      const counts = new Map<string, number>();
      for (const r of refused) counts.set(r.why, (counts.get(r.why) ?? 0) + 1);
      const refusals = [...counts].map(([why, n]) => `${why}×${n}`).join(" ");
      const seen = new Set(tripped.flatMap((o) => o.props));
      const never = writer.writable.filter((p) => !seen.has(p));
      console.log(
        `      ${outcomes.length} bodies: ${tripped.length} read back as written${refused.length ? `, ${refused.length} refused as declared (${refusals})` : ""}${never.length && tripped.length ? `; never written: ${never.join(", ")}` : ""}`,
      );
      if (tripped.length === 0)
        throw new RoundTripFailure(
          `none of the ${outcomes.length} bodies generated for ${transport === "rest" ? writer.op.operationId : writer.mutation!.coordinate} was accepted, so nothing was read back (${refusals || "no body ran"})${refused[0] ? `\n  e.g. ${refused[0].detail}` : ""}\n  seed ${run.seed}; replay: ${replay(run.seed, undefined, title)}`,
        );
    }

    /** Each property the server sets, sent with a valid value: refused (a declared 4xx), or ignored (not what was sent). */
    async function serverSetProbe(plan: ResourceRoundTrips, writer: Writer) {
      const parents = await parentsOf(writer, plan);
      const example = (plan.reader.schema.example ?? {}) as Record<string, unknown>;
      const shownProps = (plan.reader.schema.properties ?? {}) as JsonObject;
      const bodyProps = (writer.schema.properties ?? {}) as JsonObject;
      const base = (withIds(
        spec.sampleBody(writer.op)?.body ?? fc.sample(valid(resolve, writer.schema), { numRuns: 1, seed: run.seed })[0],
        parents,
        writer,
      ) ?? {}) as Record<string, unknown>;
      const failures: string[] = [];
      for (const prop of writer.serverSet) {
        const schema = resolve(bodyProps[prop] ?? shownProps[prop] ?? {});
        const value = example[prop] ?? fc.sample(valid(resolve, schema), { numRuns: 1, seed: run.seed })[0];
        const refuse = writer.closed || prop in bodyProps;
        let ids = { ...parents };
        if (writer.kind !== "create") ids = { ...ids, [plan.info.id]: await make(plan, writer, ids) };
        const url = urlOf(writer.op, ids);
        const body = { ...base, [prop]: value };
        const request = `${writer.op.method} ${url} ${JSON.stringify(body)}`;
        const asked = refuse ? [400, 422].filter((st) => String(st) in writer.op.responses) : ("any" as const);
        const res = await call(`${s.url}${url}`, {
          method: writer.op.method,
          headers: {
            "content-type": writer.mediaType,
            ...asking(`round trip: ${writer.op.operationId} sent ${prop}, which the server sets`, asked),
          },
          body: JSON.stringify(body),
        });
        if (res.status >= 500 || !(String(res.status) in writer.op.responses)) {
          failures.push(
            `"${prop}": ${writer.op.operationId} answered ${res.status}${res.status < 500 ? ", which openapi.yaml does not declare for it" : ""}\n    request: ${request}\n    answer: ${res.text.slice(0, 200)}`,
          );
          continue;
        }
        const accepted = res.status >= 200 && res.status < 300;
        if (refuse && accepted) {
          failures.push(
            `"${prop}": ${writer.op.operationId} accepted it (${res.status}), although ${prop in bodyProps ? "it is readOnly" : `${typeof writer.schema.title === "string" ? writer.schema.title : "its body schema"} has additionalProperties: false`}: expected ${asked !== "any" && asked.length ? asked.join(" or ") : "a 4xx"}\n    request: ${request}`,
          );
          continue;
        }
        if (!accepted || schema.enum || schema.type === "boolean") continue;
        if (writer.kind === "create") ids[plan.info.id] = idFrom(plan, res.json, res.headers.get("location"));
        const got = await call(`${s.url}${urlOf(plan.reader.op, ids)}`, {
          headers: asking(`round trip: reading back a ${plan.resource} (${plan.reader.op.operationId})`, [200]),
        });
        if (got.status === 200 && differences(resolve, schema, value, got.json?.[prop]).length === 0)
          failures.push(
            `"${prop}": the server set it to what the client sent (${shown(value)}); it is the server's to set\n    request: ${request}`,
          );
      }
      if (failures.length)
        throw new RoundTripFailure(
          `${writer.op.operationId} (${writer.op.method} ${writer.op.path}): what the server sets is not ${refusedOr(writer)} when a client sends it:\n  - ${failures.join("\n  - ")}`,
        );
    }
  });
}

const refusedOr = (writer: Writer) => (writer.closed ? "refused" : "refused or ignored");
