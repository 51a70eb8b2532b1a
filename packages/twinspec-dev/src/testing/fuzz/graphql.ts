// A seeded fuzzer over GraphQL over HTTP, against a real server: operations built from schema.graphql (every
// root field, arguments from the paired REST schemas or the GraphQL input types, a random selection of fields),
// the same mutated (wrong types, nulls, missing and unknown arguments, huge and odd strings, broken documents,
// limits exceeded) and malformed GraphQL-over-HTTP requests (bodies that are not JSON or not objects, parameters of
// wrong types, other media types and methods), with tokens of every kind. Oracles: no 5xx, and only the statuses
// GraphQL over HTTP answers; every body is JSON: a GraphQL response whose data matches the selection and whose
// errors each carry extensions.code — never INTERNAL_SERVER_ERROR —, or a problem for what the HTTP layer refuses;
// the server stays ready. A failure prints the seed and path that replay it (FUZZ_SEED, FUZZ_PATH).
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from "graphql";
import { describe } from "mocha";
import { it, stubsMet } from "../pending.js";
import type { AppDefinition } from "twinspec/internals";
import { specOf } from "../spec.js";
import type { FuzzOptions } from "./rest.js";
import {
  authorization,
  fuzz,
  fuzzTarget,
  testFile,
  hugeString,
  idOf,
  mutated as mutatedBy,
  oddString,
  send,
  settings,
  wrong,
  type Ids,
} from "./support.js";

const BODY_LIMIT = 64 * 1024;
/** What GraphQL over HTTP may answer (README, GraphQL): results and request errors, a refused token, a method or media type it does not take, sizes, rate limits. */
const STATUSES = new Set([200, 400, 401, 405, 406, 413, 414, 415, 429, 431]);
const PROBLEM_STATUSES = new Set([405, 413, 414, 431]);

/** A selected field, as the response's data must carry it. */
interface Selected {
  key: string;
  field: GraphQLField<unknown, unknown>;
  children?: Selected[];
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** the selection of the operation sent, when it is one this fuzzer built (to check data against) */
  selection?: Selected[];
  label: string;
}

const printSelection = (set: Selected[]): string =>
  `{ ${set.map((s) => `${s.key === s.field.name ? "" : `${s.key}: `}${s.field.name}${s.children ? ` ${printSelection(s.children)}` : ""}`).join(" ")} }`;

/** Fields to select from an object type: some leaves always, object fields (without required arguments) while shallow. */
function selection(type: GraphQLObjectType, depth: number): fc.Arbitrary<Selected[]> {
  const fields = Object.values(type.getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)));
  const objects = depth < 3 ? fields.filter((f) => isObjectType(getNamedType(f.type))) : [];
  const leaf = (f: GraphQLField<unknown, unknown>) =>
    fc
      .oneof({ weight: 5, arbitrary: fc.constant(f.name) }, { weight: 1, arbitrary: fc.constant(`a_${f.name}`) })
      .map((key) => ({ key, field: f }));
  const object = (f: GraphQLField<unknown, unknown>) =>
    selection(getNamedType(f.type) as GraphQLObjectType, depth + 1).map((children) => ({
      key: f.name,
      field: f,
      children,
    }));
  return fc
    .tuple(fc.subarray(leaves, { minLength: 1 }), fc.subarray(objects, { maxLength: Math.min(2, objects.length) }))
    .chain(([ls, os]) => fc.tuple(...ls.map(leaf), ...os.map(object)))
    .map((set) => set.filter((s, i) => set.findIndex((t) => t.key === s.key) === i));
}

/** A GraphQL literal for a value (GraphQL's own syntax, not JSON: bare keys, enum values as names). */
function literal(value: unknown, type: GraphQLInputType): string {
  if (value === null || value === undefined) return "null";
  const inner = getNullableType(type);
  if (Array.isArray(value))
    return `[${value.map((v) => literal(v, isListType(inner) ? inner.ofType : inner)).join(", ")}]`;
  if (typeof value === "object") {
    const fields = isInputObjectType(inner) ? inner.getFields() : {};
    return `{ ${Object.entries(value)
      .map(
        ([k, v]) =>
          `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, fields[k]?.type ?? inner)}`,
      )
      .join(", ")} }`;
  }
  if (isEnumType(inner) && typeof value === "string" && /^[_A-Za-z][_0-9A-Za-z]*$/.test(value)) return value;
  return typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
}

/** Does `value` have the shape the selection asks of `type`? (null where an error may have put it.) */
function conforms(
  value: unknown,
  type: GraphQLOutputType,
  children: Selected[] | undefined,
  errors: boolean,
  at: string,
): string | undefined {
  if (value === null) return isNonNullType(type) && !errors ? `${at} is null` : undefined;
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (!Array.isArray(value)) return `${at} is not a list`;
    for (const [i, item] of value.entries()) {
      const wrongItem = conforms(item, inner.ofType, children, errors, `${at}[${i}]`);
      if (wrongItem) return wrongItem;
    }
    return undefined;
  }
  if (isObjectType(inner)) return dataMismatch(value, children ?? [], errors, at);
  if (isEnumType(inner))
    return inner.getValues().some((v) => v.name === value) ? undefined : `${at} is not a ${inner.name}`;
  const ok: Record<string, (v: unknown) => boolean> = {
    ID: (v) => typeof v === "string",
    String: (v) => typeof v === "string",
    Int: (v) => Number.isInteger(v),
    Float: (v) => typeof v === "number",
    Boolean: (v) => typeof v === "boolean",
    DateTime: (v) => typeof v === "string" && !Number.isNaN(Date.parse(v)),
  };
  return ok[inner.name] && !ok[inner.name](value)
    ? `${at} is not a ${inner.name}: ${JSON.stringify(value)}`
    : undefined;
}

function dataMismatch(data: unknown, selection: Selected[], errors: boolean, at = "data"): string | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return `${at} is not an object`;
  for (const s of selection) {
    if (!(s.key in data)) return `${at}.${s.key} is missing`;
    const wrongField = conforms(
      (data as Record<string, unknown>)[s.key],
      s.field.type,
      s.children,
      errors,
      `${at}.${s.key}`,
    );
    if (wrongField) return wrongField;
  }
  return undefined;
}

/**
 * Documents over the limits or refused over HTTP, built from the schema: a subscription sent over HTTP, a list field
 * asked for 100 items nested in lists (over the cost limit), a field nested deeper than the depth limit, and a
 * mutation sent with GET.
 */
function oddFields(schema: GraphQLSchema) {
  const argsOf = (field: GraphQLField<unknown, unknown>, first?: number) => {
    const list = field.args
      .filter((a) => isNonNullType(a.type) || (first !== undefined && a.name === "first"))
      .map(
        (a) =>
          `${a.name}: ${a.name === "first" && first !== undefined ? first : getNamedType(a.type).name === "Int" ? 1 : '"x"'}`,
      );
    return list.length ? `(${list.join(", ")})` : "";
  };
  const leafOf = (type: GraphQLObjectType) =>
    Object.values(type.getFields()).find((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0)?.name ??
    "__typename";
  /** `field { child { grandchild … } }`, `depth` object fields down (fewer where the types end), preferring lists. */
  const nest = (field: GraphQLField<unknown, unknown>, depth: number, first?: number): string => {
    const type = getNamedType(field.type);
    if (!isObjectType(type)) return `${field.name}${argsOf(field, first)}`;
    const children = Object.values(type.getFields()).filter(
      (f) => isObjectType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)),
    );
    const next = children.find((f) => isListType(getNullableType(f.type))) ?? children[0];
    const inner = depth > 0 && next ? nest(next, depth - 1, first) : leafOf(type);
    return `${field.name}${argsOf(field, first)} { ${inner} }`;
  };
  const query = Object.values(schema.getQueryType()?.getFields() ?? {});
  const mutation = Object.values(schema.getMutationType()?.getFields() ?? {});
  const subscription = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
  const listField = query.find((f) => f.args.some((a) => a.name === "first")) ?? query[0];
  const byId = query.find((f) => f.args.some((a) => isNonNullType(a.type))) ?? query[0];
  return {
    subscription: subscription.slice(0, 1).map((f) => `subscription { ${nest(f, 0)} }`),
    costly: listField ? [`{ ${nest(listField, 5, 100)} }`] : [],
    deep: byId ? [`{ ${nest(byId, 11)} }`] : [],
    mutationOverGet: mutation
      .slice(0, 1)
      .map(
        (f) =>
          `?query=${encodeURIComponent(`mutation{${f.name}${argsOf(f)}${isObjectType(getNamedType(f.type)) ? "{__typename}" : ""}}`)}`,
      ),
  };
}

/**
 * Registers the GraphQL fuzzer (a mocha suite): a seeded run of GraphQL-over-HTTP requests built from the
 * application's schema.graphql against a real server. A failure prints the seed and path that replay it.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - runs, time limit, the test file and the server's options (`FuzzOptions`, as the REST fuzzer's); default none
 */
export function describeGraphqlFuzz(definition: AppDefinition, options: FuzzOptions = {}): void {
  const { graphqlSchema, graphqlInputs, operations, bodySchema, resolve } = specOf(definition);
  const mutated = (schema: unknown) => mutatedBy(resolve, schema);
  const oddOf = oddFields(graphqlSchema);

  /** A value for an argument of a GraphQL input type: ids by name, inputs from their paired REST schema, else the type's. */
  function inputValue(type: GraphQLInputType, ids: Ids, name: string, restSchema?: unknown): fc.Arbitrary<unknown> {
    if (restSchema) return mutated(restSchema);
    const inner = getNullableType(type);
    if (isListType(inner)) return fc.array(inputValue(inner.ofType, ids, name), { maxLength: 3 });
    if (isInputObjectType(inner)) {
      const fields = Object.values(inner.getFields());
      return fc.record(Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, ids, f.name)])), {
        requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
      });
    }
    if (isEnumType(inner)) return fc.constantFrom(...inner.getValues().map((v) => v.name));
    switch (inner.name) {
      case "ID":
        return idOf(ids, name);
      case "Int":
        return name === "first"
          ? fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(0, -1, 101, 2 ** 31))
          : fc.integer({ min: -10, max: 1000 });
      case "Float":
        return fc.double({ min: -10, max: 1e6, noNaN: true, noDefaultInfinity: true });
      case "Boolean":
        return fc.boolean();
      default:
        return fc.oneof(fc.string({ maxLength: 20 }), oddString);
    }
  }

  /** An operation on one root field: its arguments (maybe mutated), as variables or literals, and a selection. */
  function operation(
    ids: Ids,
  ): fc.Arbitrary<{ query: string; variables?: Record<string, unknown>; selection: Selected[] }> {
    const roots = [graphqlSchema.getQueryType(), graphqlSchema.getMutationType()].filter(
      (t) => t !== null && t !== undefined,
    );
    const fields = roots.flatMap((root) => Object.values(root.getFields()).map((field) => ({ root, field })));
    return fc.constantFrom(...fields).chain(({ root, field }) => {
      const rules = graphqlInputs[`${root.name}.${field.name}`];
      const op = rules && operations.find((o) => o.operationId === rules.operationId);
      const restFor = (arg: string) =>
        op && rules.body && "arg" in rules.body && rules.body.arg === arg ? bodySchema(op) : undefined;
      const args = fc.record(
        Object.fromEntries(
          field.args.map((a) => [
            a.name,
            fc.oneof(
              { weight: 12, arbitrary: inputValue(a.type, ids, a.name, restFor(a.name)) },
              { weight: 1, arbitrary: wrong },
            ),
          ]),
        ),
      );
      const returned = getNamedType(field.type);
      const picked = isObjectType(returned) ? selection(returned, 1) : fc.constant(undefined);
      const rarely = <T>(arb: fc.Arbitrary<T>) =>
        fc.oneof({ weight: 7, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
      const mutations = {
        drop: rarely(fc.constantFrom(...field.args.map((a) => a.name), "none")),
        unknown: rarely(fc.constant(true)),
      };
      return fc
        .record({ args, picked, asVariables: fc.boolean(), ...mutations })
        .map(({ args: values, picked: children, asVariables, drop, unknown }) => {
          const used = field.args.filter((a) => a.name !== drop);
          const top: Selected = { key: field.name, field, ...(children ? { children } : {}) };
          const argText = (a: (typeof used)[number]) =>
            `${a.name}: ${asVariables ? `$${a.name}` : literal(values[a.name], a.type)}`;
          const list = [...used.map(argText), ...(unknown ? ["bogus: 1"] : [])];
          const call = `${field.name}${list.length ? `(${list.join(", ")})` : ""}${children ? ` ${printSelection(children)}` : ""}`;
          const kind = root === graphqlSchema.getQueryType() ? "query" : "mutation";
          const definitions =
            asVariables && used.length ? `(${used.map((a) => `$${a.name}: ${String(a.type)}`).join(", ")})` : "";
          const variables = asVariables ? Object.fromEntries(used.map((a) => [a.name, values[a.name]])) : undefined;
          return { query: `${kind} Fuzz${definitions} { ${call} }`, variables, selection: [top] };
        });
    });
  }

  /** Documents no client should send: broken syntax, over the limits, several operations, a subscription over HTTP. */
  const oddDocuments = (built: fc.Arbitrary<{ query: string }>): fc.Arbitrary<string> =>
    fc.oneof(
      fc
        .tuple(built, fc.nat(), fc.nat({ max: 20 }), oddString)
        .map(
          ([{ query }, at, n, insert]) =>
            query.slice(0, at % (query.length + 1)) + insert + query.slice((at % (query.length + 1)) + n),
        ),
      built.map(({ query }) => query.slice(0, Math.floor(query.length / 2))),
      fc.constantFrom(
        "",
        "{",
        "{ }",
        "query { __typename } query { __typename }",
        ...oddOf.subscription,
        `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: __typename`).join(" ")} }`,
        ...oddOf.costly,
        ...oddOf.deep,
        "fragment F on Query { ...F } { ...F }",
        "{ __schema { types { name } } }",
        'query ($a: Int = "x") { __typename }',
      ),
      hugeString(70_000).map((s) => `{ __typename } # ${s}`),
    );

  function request(ids: Ids): fc.Arbitrary<FuzzRequest> {
    const built = operation(ids);
    const auth = authorization(ids);
    const accept = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          "application/graphql-response+json",
          "application/json",
          "application/graphql-response+json, application/json;q=0.9",
          "*/*",
          undefined,
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom("image/png", "text/html", "application/graphql-response+json;q=0") },
    );
    const headersOf = (a: string | undefined, acc: string | undefined, type?: string) => {
      const h: Record<string, string> = {};
      if (a) h.authorization = a;
      if (acc) h.accept = acc;
      if (type) h["content-type"] = type;
      return h;
    };
    const post = fc
      .tuple(built, auth, accept, fc.constantFrom("Fuzz", undefined, "Other"))
      .map(([op, a, acc, name]) => ({
        method: "POST",
        url: "/graphql",
        headers: headersOf(a, acc, "application/json"),
        body: JSON.stringify({ query: op.query, variables: op.variables, operationName: name }),
        selection: name === "Other" ? undefined : op.selection,
        label: "operation",
      }));
    const get = fc.tuple(built, auth, accept).map(([op, a, acc]) => {
      const search = new URLSearchParams({
        query: op.query,
        ...(op.variables ? { variables: JSON.stringify(op.variables) } : {}),
      });
      return {
        method: "GET",
        url: `/graphql?${search}`,
        headers: headersOf(a, acc && acc !== "text/html" ? acc : undefined),
        selection: op.selection,
        label: "operation over GET",
      };
    });
    const odd = fc.tuple(oddDocuments(built), auth, accept).map(([query, a, acc]) => ({
      method: "POST",
      url: "/graphql",
      headers: headersOf(a, acc, "application/json"),
      body: JSON.stringify({ query }),
      label: "odd document",
    }));
    const malformed = fc
      .tuple(
        fc.oneof(
          fc.constantFrom(
            "",
            "null",
            "[]",
            "{}",
            "1",
            '"query"',
            "{",
            '{"query": 1}',
            '{"query": null}',
            '{"query": "{ __typename }", "variables": "x"}',
            '{"query": "{ __typename }", "variables": [1]}',
            '{"query": "{ __typename }", "operationName": 7}',
            '{"query": "{ __typename }", "extensions": "x"}',
            '{"query": "{ __typename }", "variables": {"a": {"b": [1, {"c": null}]}}}',
          ),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
          fc
            .dictionary(fc.constantFrom("query", "variables", "operationName", "extensions", "documentId"), wrong, {
              maxKeys: 4,
            })
            .map((v) => JSON.stringify(v)),
          oddString,
        ),
        auth,
        accept,
        fc.constantFrom(
          "application/json",
          "application/json; charset=utf-8",
          "text/plain",
          "application/graphql",
          "application/x-www-form-urlencoded",
          undefined,
        ),
        fc.constantFrom("POST", "POST", "POST", "PUT", "DELETE", "PATCH"),
      )
      .map(([body, a, acc, type, method]) => ({
        method,
        url: "/graphql",
        headers: headersOf(a, acc, type),
        body,
        label: "malformed request",
      }));
    const malformedGet = fc
      .tuple(
        fc.constantFrom(
          "",
          "?query=",
          "?query=%7B",
          "?variables=%7Bx&query=%7B__typename%7D",
          ...oddOf.mutationOverGet,
          "?query=%7B__typename%7D&extensions=%5B%5D",
          "?documentId=nope",
        ),
        auth,
      )
      .map(([q, a]) => ({
        method: "GET",
        url: `/graphql${q}`,
        headers: headersOf(a, "application/graphql-response+json"),
        label: "malformed GET",
      }));
    return fc
      .oneof(
        { weight: 6, arbitrary: post },
        { weight: 1, arbitrary: get },
        { weight: 2, arbitrary: odd },
        { weight: 3, arbitrary: malformed },
        { weight: 1, arbitrary: malformedGet },
      )
      .map((req: FuzzRequest) => Object.assign(req, { [fc.toStringMethod]: () => describeRequest(req) }));
  }

  const describeRequest = (req: FuzzRequest) =>
    `${req.label}: ${req.method} ${req.url.slice(0, 500)} ${JSON.stringify(req.headers)} ${JSON.stringify(req.body?.slice(0, 800) ?? "")}`;

  describe("fuzz: GraphQL over HTTP", function () {
    this.timeout(120_000);
    const target = fuzzTarget(definition, BODY_LIMIT, options.server);

    it("only the statuses GraphQL over HTTP answers, no 5xx; coded errors, never INTERNAL_SERVER_ERROR; data as selected; the server stays ready", async function () {
      const base = target.server.url;
      const where = { file: testFile(options.file, this), suite: "fuzz: GraphQL over HTTP", stubs: new Set<string>() };
      const codes = new Map<string, number>();
      await fuzz(
        where,
        base,
        request(target.ids),
        async (req) => {
          const res = await send(`${base}${req.url}`, {
            method: req.method,
            headers: req.headers,
            body: req.method === "GET" ? undefined : req.body,
          });
          const text = await res.text();
          const what = `${describeRequest(req)}\n→ ${res.status} ${res.headers.get("content-type")} ${text.slice(0, 600)}`;
          assert.ok(STATUSES.has(res.status), `GraphQL over HTTP does not answer ${res.status}: ${what}`);
          if (!text) {
            // Refusals of the method or media type may come without a body.
            assert.ok([405, 406, 415].includes(res.status), `an empty ${res.status}: ${what}`);
            return res.status;
          }
          const type = res.headers.get("content-type") ?? "";
          assert.match(type, /^application\/(graphql-response\+json|json|problem\+json)\b/, what);
          const body = JSON.parse(text);
          if (type.startsWith("application/problem+json")) {
            assert.ok(PROBLEM_STATUSES.has(res.status), `a problem for ${res.status}: ${what}`);
            assert.equal(body.status, res.status, what);
            assert.equal(typeof body.title, "string", what);
            return res.status;
          }
          assert.ok(body && typeof body === "object" && !Array.isArray(body), `not a GraphQL response: ${what}`);
          assert.deepEqual(
            Object.keys(body).filter((k) => !["data", "errors", "extensions"].includes(k)),
            [],
            what,
          );
          assert.ok("data" in body || "errors" in body, what);
          if ("errors" in body) assert.ok(Array.isArray(body.errors) && body.errors.length > 0, what);
          for (const e of body.errors ?? []) {
            assert.equal(typeof e.message, "string", what);
            const code = e.extensions?.code;
            assert.match(String(code), /^[A-Z][A-Z_]+$/, `an error without extensions.code: ${what}`);
            assert.notEqual(code, "INTERNAL_SERVER_ERROR", what);
            // A resolver still a stub is pending, not a failure (pending.ts).
            if (code === "NOT_IMPLEMENTED") {
              const stub = String(e.message).split(" ")[0] || "a GraphQL field";
              stubsMet.add(stub);
              where.stubs.add(stub);
            }
            codes.set(code, (codes.get(code) ?? 0) + 1);
          }
          if (body.data && req.selection) {
            const mismatch = dataMismatch(body.data, req.selection, "errors" in body);
            assert.equal(mismatch, undefined, `${mismatch}: ${what}`);
          }
          return res.status;
        },
        { ...settings(options.runs ?? 800), timeLimitMs: options.timeLimitMs ?? 25_000 },
      );
      console.log(
        `      codes: ${[...codes]
          .sort(([, a], [, b]) => b - a)
          .map(([code, n]) => `${code}×${n}`)
          .join(" ")}`,
      );
    });
  });
}
