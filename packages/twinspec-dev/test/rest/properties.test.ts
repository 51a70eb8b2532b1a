// Property-based (fast-check): requests built from the coverage document's own schemas are accepted, and each
// single mutation of one (a required field dropped, an unknown field added, a value of the wrong type) is rejected
// with a 400 naming exactly that field — over real HTTP through the generated wiring.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import Koa from "koa";
import { parse } from "yaml";
import { restRoutes } from "../golden/coverage/rest.js";
import { problemErrors } from "../../../twinspec/src/http/errors.js";

type Schema = Record<string, any>;
type Problem = { errors: { pointer: string }[] };
const doc = parse(readFileSync("test/fixtures/coverage/coverage.yaml", "utf8"));
const shared = parse(readFileSync("test/fixtures/coverage/shared.yaml", "utf8"));
const resolve = (s: Schema): Schema => {
  if (!s.$ref) return s;
  const [file, pointer] = s.$ref.split("#");
  const root = file ? shared : doc;
  return resolve(
    pointer
      .split("/")
      .slice(1)
      .reduce((node: Schema, key: string) => node[key], root),
  );
};

/** Values valid against a schema (the subset of keywords coverage.yaml uses). */
function valid(raw: Schema): fc.Arbitrary<unknown> {
  const s = resolve(raw);
  if (s.allOf) {
    const parts = s.allOf.map(resolve);
    const properties = Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {}));
    const required = [...new Set([...(s.required ?? []), ...parts.flatMap((p: Schema) => p.required ?? [])])];
    return valid({ type: "object", properties, required });
  }
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case "object": {
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, valid(v as Schema)]));
      return fc.record(props, { requiredKeys: s.required ?? [] });
    }
    case "array":
      return fc.array(valid(s.items), { maxLength: 5 });
    case "integer":
      return fc.integer({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
    case "boolean":
      return fc.boolean();
    case "string":
      return s.pattern
        ? fc.stringMatching(new RegExp(s.pattern))
        : fc.string({ minLength: s.minLength ?? 0, maxLength: s.maxLength ?? 20 });
    default:
      throw new Error(`no arbitrary for ${JSON.stringify(s)}`);
  }
}

/** A value of another JSON type than the schema's, so the validator must name it. */
const wrongType = (raw: Schema): fc.Arbitrary<unknown> => {
  const type = resolve(raw).type;
  const others: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)),
    integer: fc.oneof(fc.string(), fc.boolean(), fc.double({ min: 0.1, max: 0.9 })),
    boolean: fc.oneof(fc.string(), fc.integer()),
    object: fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer())),
    array: fc.oneof(fc.string(), fc.integer(), fc.constant({})),
  };
  return others[type] ?? fc.constant(Symbol("unreachable"));
};

describe("property: schema-built requests are accepted, single mutations rejected at the mutated field", function () {
  this.timeout(60_000);
  let server: Server;
  let url: string;
  before(async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(problemErrors());
    koa.use(
      restRoutes({
        async createWidget(req) {
          return {
            status: 201,
            body: { id: 1, name: "n", ...(req.body as object) },
            headers: { Location: "/widgets/1" },
          } as never;
        },
        async listWidgets(req) {
          return { status: 200, body: { query: req.query } };
        },
      }),
    );
    const handle = koa.callback();
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((r) => server.close(r)));

  const post = (body: unknown) =>
    fetch(`${url}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const newWidget = { $ref: "#/components/schemas/NewWidget" };
  const fields = resolve({ $ref: "#/components/schemas/WidgetFields" }).properties as Record<string, Schema>;
  const runs = { numRuns: 60 };

  it("every NewWidget built from the schema is accepted (201)", async () => {
    await fc.assert(
      fc.asyncProperty(valid(newWidget), async (body) => assert.equal((await post(body)).status, 201)),
      runs,
    );
  });

  it("dropping the required field is a 400 at /name", async () => {
    await fc.assert(
      fc.asyncProperty(valid(newWidget), async (body) => {
        const { name: _, ...rest } = body as Record<string, unknown>;
        const res = await post(rest);
        assert.equal(res.status, 400);
        assert.deepEqual(
          ((await res.json()) as Problem).errors.map((e: { pointer: string }) => e.pointer),
          ["/name"],
        );
      }),
      runs,
    );
  });

  it("an unknown field is a 400 naming it", async () => {
    const unknown = fc
      .string({ minLength: 1, maxLength: 10 })
      .filter((k) => !(k in fields) && !k.includes("~") && !k.includes("/"));
    await fc.assert(
      fc.asyncProperty(valid(newWidget), unknown, fc.jsonValue(), async (body, key, value) => {
        const res = await post({ ...(body as object), [key]: value });
        assert.equal(res.status, 400);
        assert.deepEqual(
          ((await res.json()) as Problem).errors.map((e: { pointer: string }) => e.pointer),
          [`/${key}`],
        );
      }),
      runs,
    );
  });

  it("a value of the wrong type is a 400 at that field", async () => {
    const mutation = fc
      .constantFrom(...Object.keys(fields))
      .chain((field) => fc.tuple(fc.constant(field), wrongType(fields[field])));
    await fc.assert(
      fc.asyncProperty(valid(newWidget), mutation, async (body, [field, value]) => {
        const res = await post({ ...(body as object), [field]: value });
        assert.equal(res.status, 400);
        const pointers: string[] = ((await res.json()) as Problem).errors.map((e: { pointer: string }) => e.pointer);
        assert.ok(
          pointers.length > 0 && pointers.every((p) => p === `/${field}`),
          `${JSON.stringify(pointers)} for /${field}`,
        );
      }),
      runs,
    );
  });

  it("query arrays round-trip through their style: ids exploded, tags comma-joined, items coerced", async () => {
    const tag = fc.string({ minLength: 1, maxLength: 8 }).filter((t) => !t.includes(","));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { minLength: 1, maxLength: 5 }),
        fc.array(tag, { minLength: 1, maxLength: 5 }),
        async (ids, tags) => {
          const query = new URLSearchParams([
            ...ids.map((id): [string, string] => ["ids", String(id)]),
            ["tags", tags.join(",")],
          ]);
          const res = await fetch(`${url}/widgets?${query}`);
          assert.equal(res.status, 200);
          assert.deepEqual(((await res.json()) as { query: unknown }).query, { ids, tags });
        },
      ),
      runs,
    );
  });

  it("an item that is not an integer is a 400 at its index", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer(), { maxLength: 4 }),
        fc.string().filter((s) => !/^-?\d+$/.test(s)),
        fc.nat(),
        async (ids, bad, at) => {
          const items = ids.map(String);
          const index = at % (items.length + 1);
          items.splice(index, 0, bad);
          const res = await fetch(
            `${url}/widgets?${new URLSearchParams(items.map((i): [string, string] => ["ids", i]))}`,
          );
          assert.equal(res.status, 400);
          assert.deepEqual(
            ((await res.json()) as Problem).errors.map((e: { pointer: string }) => e.pointer),
            [`/ids/${index}`],
          );
        },
      ),
      runs,
    );
  });
});
