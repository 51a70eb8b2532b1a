// Merging Twinspec's parts into an application's OpenAPI document (src/parts/include.ts) and its SDL
// (src/parts/files.ts): what is added, how the part is fitted to the document, and what cannot be included.
import assert from "node:assert/strict";
import { buildSchema, isEnumType } from "graphql";
import { includeParts as merge } from "../../src/parts/include.js";
import { PartError, partsOf, withPartTypeDefs } from "../../src/parts/files.js";

type Doc = Record<string, any>;
const includeParts = (doc: Doc) => merge(doc) as Doc;
const app = (extra: Doc = {}): Doc => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  "x-twinspec-parts": ["webhook-endpoints"],
  paths: { "/books": { get: { operationId: "listBooks", responses: { "200": { description: "ok" } } } } },
  webhooks: { bookAdded: { post: {} }, bookRemoved: { post: {} } },
  components: {
    securitySchemes: {
      apiKey: { type: "apiKey", in: "header", name: "x-key" },
      jwt: { type: "http", scheme: "bearer", "x-scopes": { "books:read": "Read books" } },
    },
  },
  ...extra,
});
const refusal = (doc: Doc) => {
  try {
    includeParts(doc);
  } catch (error) {
    assert.ok(error instanceof PartError, String(error));
    return `${error.pointer}: ${error.reason}`;
  }
  assert.fail("included");
};

describe("Twinspec's parts, merged in", () => {
  it("a document that lists none is itself", () => {
    const doc = app();
    delete doc["x-twinspec-parts"];
    assert.equal(includeParts(doc), doc);
  });

  it("adds the part's paths, tags and components, marked as the part's, without changing the document given", () => {
    const doc = app();
    const before = structuredClone(doc);
    const out = includeParts(doc);
    assert.deepEqual(doc, before);
    assert.ok(out.paths["/books"].get);
    assert.equal(out.paths["/webhook-endpoints"].post["x-twinspec-part"], "webhook-endpoints");
    assert.ok(out.tags.some((t: Doc) => t.name === "webhook-endpoints"));
    assert.ok(out.components.schemas.WebhookEndpoint);
  });

  it("fits the part to the application: its bearer scheme and scopes, its webhooks, its rate limits", () => {
    const out = includeParts(app());
    const create = out.paths["/webhook-endpoints"].post;
    assert.deepEqual(create.security, [{ jwt: ["webhooks:write"] }]);
    assert.deepEqual(Object.keys(out.components.securitySchemes.jwt["x-scopes"]), [
      "books:read",
      "webhooks:read",
      "webhooks:write",
    ]);
    assert.deepEqual(out.components.schemas.WebhookEventType.enum, ["bookAdded", "bookRemoved"]);
    assert.deepEqual(create.requestBody.content["application/json"].example.events, ["bookAdded"]);
    // 429 only with a default budget.
    assert.equal("429" in create.responses, false);
    assert.equal(
      "429" in
        includeParts(app({ "x-rate-limit": { limit: 10, window: 60 } })).paths["/webhook-endpoints"].post.responses,
      true,
    );
  });

  it("refuses what cannot be included, naming where", () => {
    assert.match(refusal(app({ "x-twinspec-parts": ["billing"] })), /^\/x-twinspec-parts: "billing" is not a part/);
    assert.match(refusal(app({ "x-twinspec-parts": "webhook-endpoints" })), /must be a list/);
    assert.match(refusal(app({ webhooks: undefined })), /declares none under webhooks/);
    assert.match(
      refusal(app({ components: { securitySchemes: { k: { type: "apiKey", in: "header", name: "k" } } } })),
      /^\/components\/securitySchemes: .*bearer/,
    );
    const taken = app();
    taken.paths["/webhook-endpoints"] = { get: {} };
    assert.match(refusal(taken), /^\/paths\/~1webhook-endpoints: \/webhook-endpoints is webhook-endpoints's/);
    const schema = app();
    schema.components.schemas = { WebhookEndpoint: { type: "string" } };
    assert.match(refusal(schema), /^\/components\/schemas\/WebhookEndpoint: /);
    // The same component written twice is no conflict.
    const same = includeParts(app());
    const again = app({
      components: { ...app().components, schemas: { TwinspecProblem: same.components.schemas.TwinspecProblem } },
    });
    assert.ok(includeParts(again).paths["/webhook-endpoints"]);
  });

  it("the SDL: the part's types after the application's, with the enum of its webhooks", () => {
    const sdl = `directive @auth(scopes: [String!]!) on FIELD_DEFINITION | OBJECT
scalar DateTime
type Query { book: String }
type Mutation { addBook: String }`;
    assert.equal(withPartTypeDefs(sdl, [], ["bookAdded"]), sdl);
    const schema = buildSchema(withPartTypeDefs(sdl, partsOf(app()), ["bookAdded", "bookRemoved"]));
    assert.ok(schema.getQueryType()!.getFields().webhookEndpoints);
    assert.ok(schema.getMutationType()!.getFields().createWebhookEndpoint);
    const events = schema.getType("WebhookEventType");
    assert.ok(isEnumType(events));
    assert.deepEqual(
      events.getValues().map((v) => v.name),
      ["bookAdded", "bookRemoved"],
    );
    assert.throws(() => withPartTypeDefs(sdl, ["webhook-endpoints"], ["book.added"]), /not a GraphQL name/);
  });
});
