// The status walks: declared statuses that every operation of a kind can answer, produced by walking the
// application's openapi.yaml with what the specs say of each operation (sample bodies, resources, conditional
// headers): 204 under Prefer: return=minimal, 400 for a malformed path id or query parameter, 404 for an unknown id,
// 410 for a deleted target (a child's parent: over GraphQL too), 304 / 412 for conditional requests, 406 / 413 / 415 for content negotiation and bodies,
// 409 / 422 for Idempotency-Keys, 429 for a caller over its rate limit, 500 — with only a request id — for an
// unexpected failure and 503 + Retry-After when the database cannot serve. Operation-specific outcomes are the
// application's own tests. A new resource in the specs is walked as it is.
import assert from "node:assert/strict";
import { afterEach, describe } from "mocha";
import { after, before, it } from "./pending.js";
import type { AppDefinition } from "twinspec/internals";
import { fingerprint, PROBLEMS } from "twinspec/internals";
import { call, gql } from "./client.js";
import { asking } from "./coverage.js";
import { hourly, rateLimitFields as fields } from "./rate-limit.js";
import { startServer, type Faults, type TestServer, type TestServerOptions } from "./server.js";
import { declares, fieldCall, pathParams, specOf, urlOf, type Operation } from "./spec.js";
import { ADMIN_SUBJECT, token } from "./tokens.js";

/** How the status walks run. */
export interface StatusWalkOptions {
  /** what the test servers are started with beyond the walks' own options (a migrations folder, …) */
  server?: TestServerOptions;
}

const BODY_LIMIT = 4096;
const hasHeader = (op: Operation, name: string) => op.parameters.some((p) => p.in === "header" && p.name === name);

/**
 * Registers the status walks over every operation of the application's openapi.yaml (mocha suites): the declared
 * statuses every operation of a kind can answer (204, 304, 400, 404, 406, 409, 410, 412, 413, 415, 422, 429, 500, 503).
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - the servers' options (`StatusWalkOptions`); default none
 */
export function describeStatusWalks(definition: AppDefinition, options: StatusWalkOptions = {}): void {
  const spec = specOf(definition);
  const { operations, sampleBody, resourceOfParam } = spec;
  const send = (base: string, op: Operation, ids: Record<string, string>, init?: Parameters<typeof spec.send>[3]) =>
    spec.send(base, op, ids, init);
  const newWorld = (base: string) => spec.newWorld(base);
  const rateLimits = definition.contract.rateLimits;
  const restParents = definition.contract.restParents;
  /** What a step sends to ask for `statuses` (for the coverage gate: it counts what was asked for and got). */
  const ask = (op: Operation, what: string, ...statuses: number[]) => ({
    expect: statuses,
    step: `status walk: ${op.operationId}: ${what}`,
  });

  describe("declared statuses, walked over every operation", () => {
    let s: TestServer;
    const faults: Faults = { armed: false };
    before(async () => (s = await startServer(definition, { ...options.server, bodyLimit: BODY_LIMIT, faults })));
    after(() => s?.close());
    afterEach(() => Object.assign(faults, { armed: false, kind: undefined }));

    const world = async () => (await newWorld(s.url)).ids;

    for (const op of operations) {
      const params = pathParams(op.path);
      const last = params.at(-1);

      if (last && declares(op, 400)) {
        it(`${op.operationId}: a malformed ${last} → 400 naming it`, async () => {
          const res = await send(
            s.url,
            op,
            { ...(await world()), [last]: "bad id!" },
            ask(op, `a malformed ${last}`, 400),
          );
          assert.equal(res.status, 400, res.text);
          assert.deepEqual(
            res.json.errors.map((e: { in: string; pointer: string }) => `${e.in}:${e.pointer}`),
            [`path:/${last}`],
          );
        });
      }

      const typed = op.parameters.find((p) => p.in === "query" && ["integer", "number", "boolean"].includes(p.type));
      if (typed && declares(op, 400)) {
        it(`${op.operationId}: an ${typed.type} query parameter (${typed.name}) that is not one → 400 naming it`, async () => {
          const ids = await world();
          const headers = asking(
            `status walk: ${op.operationId}: a query parameter ${typed.name} that is no ${typed.type}`,
            [400],
          );
          const res = await call(`${s.url}${urlOf(op, ids)}?${encodeURIComponent(typed.name)}=not-a-${typed.type}`, {
            method: op.method,
            headers,
            ...(sampleBody(op) ? { json: sampleBody(op)!.body } : {}),
          });
          assert.equal(res.status, 400, res.text);
          assert.ok(
            res.json.errors.some(
              (e: { in: string; pointer: string }) => e.in === "query" && e.pointer === `/${typed.name}`,
            ),
            res.text,
          );
        });
      }

      if (last && declares(op, 404)) {
        it(`${op.operationId}: an unknown ${last} → 404`, async () => {
          const res = await send(
            s.url,
            op,
            { ...(await world()), [last]: "nothing_here" },
            ask(op, `an unknown ${last}`, 404),
          );
          assert.equal(res.status, 404, res.text);
        });
      }

      // Only what the world can make can be deleted: a parameter naming no resource of the application's (a Twinspec
      // part's endpoint, say) leaves its 410 to the application's tests.
      if (last && declares(op, 410) && resourceOfParam(last)) {
        const child = restParents[op.operationId];
        it(`${op.operationId}: a deleted target (or a deleted ${child ? "parent's, up to its owner" : "owner"}'s) → 410`, async () => {
          const ids = await world();
          // Delete what the path names, if it can be deleted; else the nearest above it: its parent (x-resource
          // owner: { through }), the parent's, … up to its owner. A child's operation answers its parent's 410.
          const target = deleterAbove(last);
          assert.ok(target, `nothing deletes ${last}, its parents or its owner`);
          assert.equal(
            (await send(s.url, target, ids, ask(target, `deleting what ${op.operationId} reads`, 204))).status,
            204,
          );
          const res = await send(s.url, op, ids, ask(op, "a deleted target", 410));
          assert.equal(res.status, 410, res.text);
          // The paired root field of a child's operation answers its parent's GONE too.
          const field = child ? definition.contract.pairs[op.operationId] : undefined;
          if (field && definition.contract.graphqlParents[field]) {
            const answer = await sendField(s.url, field, ids);
            assert.ok(
              answer.json?.errors?.some((e: { extensions?: { code?: string } }) => e.extensions?.code === "GONE"),
              `${field}: ${answer.text}`,
            );
          }
        });
      }

      if (op.method === "GET" && declares(op, 304)) {
        it(`${op.operationId}: If-None-Match with the current ETag, or If-Modified-Since now → 304 without a body`, async () => {
          const ids = await world();
          const first = await send(s.url, op, ids, ask(op, "a read", 200));
          assert.equal(first.status, 200);
          const again = await send(s.url, op, ids, {
            headers: { "If-None-Match": first.headers.get("etag")! },
            ...ask(op, "If-None-Match with the current ETag", 304),
          });
          assert.deepEqual([again.status, again.text, again.headers.get("etag")], [304, "", first.headers.get("etag")]);
          const since = await send(s.url, op, ids, {
            headers: { "If-Modified-Since": new Date(Date.now() + 1000).toUTCString() },
            ...ask(op, "If-Modified-Since now", 304),
          });
          assert.equal(since.status, 304);
          // If-None-Match wins over If-Modified-Since (RFC 9110 §13.2.2).
          const both = await send(s.url, op, ids, {
            headers: { "If-None-Match": '"other"', "If-Modified-Since": new Date(Date.now() + 1000).toUTCString() },
          });
          assert.equal(both.status, 200);
        });
      }

      if (declares(op, 412) && hasHeader(op, "If-Unmodified-Since")) {
        it(`${op.operationId}: If-Unmodified-Since before its last change, or a stale If-Match → 412, nothing changed`, async () => {
          const ids = await world();
          const read = operations.find((o) => o.method === "GET" && o.path === op.path)!;
          const before = await send(s.url, read, ids);
          const stale = await send(s.url, op, ids, {
            headers: { "If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT" },
            ...ask(op, "If-Unmodified-Since before its last change", 412),
          });
          assert.equal(stale.status, 412, stale.text);
          const staleTag = await send(s.url, op, ids, {
            headers: { "If-Match": '"v999"' },
            ...ask(op, "a stale If-Match", 412),
          });
          assert.equal(staleTag.status, 412, staleTag.text);
          // If-Match decides when both are sent (§13.2.2): the current ETag lets the write through.
          const current = await send(s.url, op, ids, {
            headers: {
              "If-Match": before.headers.get("etag")!,
              "If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT",
            },
            ...ask(op, "the current If-Match", 200, 201, 202, 204),
          });
          assert.ok(current.status < 300, `${current.status} ${current.text}`);
        });
      }

      if (declares(op, 204) && hasHeader(op, "Prefer") && op.method !== "DELETE") {
        it(`${op.operationId}: Prefer: return=minimal → 204 with no body and the new ETag, the change made`, async () => {
          const ids = await world();
          const read = operations.find((o) => o.method === "GET" && o.path === op.path)!;
          const before = await send(s.url, read, ids);
          const res = await send(s.url, op, ids, {
            headers: { Prefer: "return=minimal" },
            ...ask(op, "Prefer: return=minimal", 204),
          });
          assert.deepEqual([res.status, res.text], [204, ""], res.text);
          const after = await send(s.url, read, ids);
          assert.equal(res.headers.get("etag"), after.headers.get("etag"), "the 204's ETag is the resource's new one");
          assert.notEqual(
            after.headers.get("etag"),
            before.headers.get("etag"),
            "the sample body changed the resource",
          );
        });
      }

      if (declares(op, 406)) {
        it(`${op.operationId}: Accept that excludes its media types → 406`, async () => {
          const res = await send(s.url, op, await world(), {
            headers: { accept: "application/x-none-of-these" },
            ...ask(op, "an Accept it cannot meet", 406),
          });
          assert.deepEqual([res.status, res.headers.get("content-type")], [406, "application/problem+json"], res.text);
        });
      }

      if (sampleBody(op) && declares(op, 413)) {
        it(`${op.operationId}: a body over the limit → 413`, async () => {
          const res = await send(s.url, op, await world(), {
            raw: JSON.stringify({ pad: "x".repeat(BODY_LIMIT) }),
            ...ask(op, "a body over the limit", 413),
          });
          assert.equal(res.status, 413, res.text);
        });
      }

      if (sampleBody(op) && declares(op, 415)) {
        it(`${op.operationId}: a body of a media type it does not take → 415 naming what it takes`, async () => {
          const res = await send(s.url, op, await world(), {
            headers: { "content-type": "text/plain" },
            raw: "hello",
            ...ask(op, "a body of another media type", 415),
          });
          assert.equal(res.status, 415, res.text);
          assert.ok(
            res.headers.get(op.method === "PATCH" ? "accept-patch" : "accept-post"),
            "names the accepted media types",
          );
        });
      }

      if (hasHeader(op, "Idempotency-Key") && declares(op, 422)) {
        it(`${op.operationId}: an Idempotency-Key reused with another request → 422`, async () => {
          const key = `walk-${op.operationId}-${Date.now()}`;
          const first = await send(s.url, op, await world(), { headers: { "Idempotency-Key": key } });
          assert.ok(first.status < 500, first.text);
          // Another request: other path ids, or (for a collection) another body.
          const reused = ask(op, "an Idempotency-Key reused with another request", 422);
          const other = params.length
            ? await send(s.url, op, await world(), { headers: { "Idempotency-Key": key }, ...reused })
            : await send(
                s.url,
                op,
                {},
                { headers: { "Idempotency-Key": key }, body: variant(sampleBody(op)!.body), ...reused },
              );
          assert.equal(other.status, 422, other.text);
        });
      }

      if (hasHeader(op, "Idempotency-Key") && declares(op, 409)) {
        it(`${op.operationId}: a repeat of an Idempotency-Key whose first request is still running → 409`, async () => {
          const ids = await world();
          const key = `running-${op.operationId}-${Date.now()}`;
          // The first request is "running": its key is claimed, with no answer yet.
          const request = {
            params: Object.fromEntries(params.map((p) => [p, ids[p]])),
            query: {},
            body: spec.bodyWithIds(op, ids) ?? null,
          };
          assert.ok(
            await s.store.idempotencyKeys.claim(
              ADMIN_SUBJECT,
              key,
              fingerprint(op.operationId, request),
              new Date().toISOString(),
            ),
          );
          const res = await send(s.url, op, ids, {
            headers: { "Idempotency-Key": key },
            ...ask(op, "an Idempotency-Key still in flight", 409),
          });
          assert.equal(res.status, 409, res.text);
          assert.match(res.json.detail, /still being processed/);
        });
      }

      if (declares(op, 500)) {
        it(`${op.operationId}: an unexpected failure → 500 with only a request id`, async () => {
          const ids = await world();
          faults.armed = true;
          const res = await send(s.url, op, ids, ask(op, "an unexpected failure", 500));
          faults.armed = false;
          assert.deepEqual([res.status, res.headers.get("content-type")], [500, "application/problem+json"], res.text);
          assert.equal(res.json.requestId, res.headers.get("x-request-id"));
          assert.doesNotMatch(res.text, /injected fault|at .*\.ts:/, "nothing of the failure leaks");
        });
      }
    }

    for (const op of operations.filter((o) => declares(o, 503))) {
      it(`${op.operationId}: the database unable to serve → 503 + Retry-After`, async () => {
        const ids = await world();
        Object.assign(faults, { armed: true, kind: "unavailable" });
        const res = await send(s.url, op, ids, ask(op, "the database unable to serve", 503));
        Object.assign(faults, { armed: false, kind: undefined });
        assert.deepEqual(
          [res.status, res.headers.get("content-type"), res.json.type],
          [PROBLEMS.unavailable.status, "application/problem+json", PROBLEMS.unavailable.type],
          res.text,
        );
        assert.match(res.headers.get("retry-after") ?? "", /^\d+$/);
      });
    }

    it("every operation with a request body gives an example, so every walk above can send it", () => {
      const missing = operations.filter((op) => op.body && !sampleBody(op)).map((op) => op.operationId);
      assert.deepEqual(missing, []);
    });

    it("an URL walked above is the operation's own (sanity check of the walker)", async () => {
      const ids = await world();
      // What the world holds an instance of (a Twinspec part's endpoint is none of its resources).
      for (const op of operations.filter((o) => o.method === "GET" && pathParams(o.path).every((p) => p in ids)))
        assert.equal(
          (
            await call(`${s.url}${urlOf(op, ids)}`, {
              headers: asking(`status walk: ${op.operationId}: a read`, [200]),
            })
          ).status,
          200,
          op.operationId,
        );
    });
  });

  describe("429, walked over every rate-limited operation", () => {
    // Every budget of the specs is 1 per hour here: a caller's second request of any operation is over budget.
    let s: TestServer;
    before(
      async () =>
        (s = await startServer(definition, {
          ...options.server,
          rateLimits: { overrides: hourly(definition, {}, 1) },
        })),
    );
    after(() => s?.close());

    for (const op of operations.filter((o) => declares(o, 429))) {
      it(`${op.operationId}: a caller over its budget → 429 with Retry-After and the RateLimit fields`, async () => {
        // A caller of its own (budgets are shared by operations), and ids that need no data: the budget comes first.
        const caller = await token(`walk-429-${op.operationId}`, "admin");
        const ids = Object.fromEntries(pathParams(op.path).map((p) => [p, "nothing_here"]));
        const first = await send(s.url, op, ids, { token: caller });
        const over = { token: caller, ...ask(op, "a caller over its budget", 429) };
        let res = await send(s.url, op, ids, over);
        // Should the hour have ended in between, that one spent the new window's budget.
        if (res.status !== 429) res = await send(s.url, op, ids, over);
        assert.equal(res.status, 429, `${first.status} then ${res.status} ${res.text}`);
        assert.equal(res.headers.get("content-type"), "application/problem+json");
        const f = fields(res.headers);
        assert.deepEqual([f.policy, f.limit, f.remaining], [rateLimits.rest[op.operationId], 1, 0]);
        assert.equal(f.retryAfter, f.reset);
      });
    }
  });

  /** The DELETE of the resource a path parameter names, if it has one. */
  function deleterOf(param: string | undefined): Operation | undefined {
    const path = param ? resourceOfParam(param)?.[1].path : undefined;
    return operations.find((o) => o.method === "DELETE" && o.path === path);
  }

  /** Sends a root field ("Query.x") with the arguments the specs give it for the instances `ids` names, as admin. */
  async function sendField(base: string, coordinate: string, ids: Record<string, string>) {
    const [root, name] = coordinate.split(".");
    const field = (
      root === "Query" ? spec.graphqlSchema.getQueryType() : spec.graphqlSchema.getMutationType()
    )!.getFields()[name];
    const { query, variables } = fieldCall(root, field, spec.argumentValues(root, field, ids));
    return gql(base, query, variables, { token: await token(ADMIN_SUBJECT, "admin") });
  }

  /** What deletes the thing `param` names, else the nearest thing above it that something deletes (parent, …, owner). */
  function deleterAbove(param: string): Operation | undefined {
    const seen = new Set<string>();
    for (let at: string | undefined = param; at && !seen.has(at); at = ownerParamOf(at)) {
      seen.add(at);
      const found = deleterOf(at);
      if (found) return found;
    }
    return undefined;
  }

  /** The path parameter naming the owner of what `param` names (x-resource owner, or the parent it goes through; itself for a self-owned one). */
  function ownerParamOf(param: string): string | undefined {
    const resource = resourceOfParam(param)?.[1];
    return !resource || resource.owner === "none" ? undefined : resource.owner === "self" ? param : resource.owner;
  }
}

/** The same body with its first plain string changed: another request that is just as valid. */
function variant(body: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  const key = Object.keys(copy).find((k) => typeof copy[k] === "string" && !/[@:/]/.test(copy[k]));
  if (key) copy[key] = `${copy[key]}2`;
  return copy;
}
