// webhooks.ts and the agreement check: a webhook of openapi.yaml pairs with the subscription field carrying the same
// event; its payload is compared with the field's type field by field, its owner is the subscription's (and the
// paired event stream's), and what makes it undeliverable is named. Read from the fixture's specs, edited.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { readContract } from "../../../src/codegen/model/contract.js";
import { collectOperations } from "../../../src/codegen/model/operations.js";
import { checkAgreement } from "../../../src/codegen/check/spec-agreement.js";
import { agreementConfig } from "../../../src/codegen/check/spec-agreement.config.js";
import type { JsonObject } from "../../../src/codegen/load/spec.js";
import { graphqlWithParts, withParts } from "../../../src/codegen/load/parts.js";
import { tagsWithFiles } from "../../../src/codegen/emit/contract-emitter.js";
import { syncStubs } from "../../../src/codegen/emit/stubs.js";
import { FIXTURE } from "../../../../twinspec/test/support/fixture.js";

const restText = readFileSync(join(FIXTURE, "openapi.yaml"), "utf8");
// The fixture's noteChanged webhook, its payload here without the note's ownerId (noteChange below).
const sdlText = readFileSync(join(FIXTURE, "schema.graphql"), "utf8").replace(
  /(type NoteChange \{[^}]*?)ownerId: ID!\n\s*/,
  "$1",
);
/** The fixture's schema as it would be without the webhook: the subscription and its type unpaired. */
const unpairedSdl = readFileSync(join(FIXTURE, "schema.graphql"), "utf8")
  .replace("type NoteChange {", 'type NoteChange @unpaired(reason: "subscriptions only") {')
  .replace(
    /(noteChanged\(authorId: ID!\): NoteChange!\s+@auth\(scopes: \["notes:read"\]\))/,
    '$1 @unpaired(reason: "subscriptions only", tag: "notes")',
  );

const noteChange = () => ({
  type: "object",
  required: ["noteId", "authorId", "title", "sentAt"],
  properties: {
    noteId: { type: "string" },
    authorId: { type: "string" },
    title: { type: "string" },
    sentAt: { type: "string", format: "date-time" },
  },
});
const webhook = (data: unknown = { $ref: "#/components/schemas/NoteChange" }, target = "Subscription.noteChanged") => ({
  post: {
    operationId: "noteChangedWebhook",
    tags: ["notes"],
    "x-graphql": target,
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["type", "timestamp", "data"],
            properties: { type: { type: "string" }, timestamp: { type: "string", format: "date-time" }, data },
          },
        },
      },
    },
    responses: { "2XX": { description: "received" } },
  },
});

function read(edit: (doc: any) => void = () => {}, sdl = sdlText, parts = false) {
  let doc = parse(restText) as any;
  doc.components.schemas.NoteChange = noteChange();
  doc.webhooks = { noteChanged: webhook() };
  edit(doc);
  // With Twinspec's part webhook-endpoints included, both specs as generate reads them (load/parts.ts).
  if (parts) {
    doc["x-twinspec-parts"] = ["webhook-endpoints"];
    sdl = graphqlWithParts("openapi.yaml", sdl, doc);
    doc = withParts("openapi.yaml", doc);
  }
  const agreement = checkAgreement(doc as JsonObject, sdl, agreementConfig);
  const { contract, problems } = readContract(doc, collectOperations(doc, "openapi.yaml"), sdl, (t) =>
    agreement.restProperties.get(t),
  );
  return {
    contract,
    problems: problems.map((p) => `${p.at}: ${p.message}`),
    mismatches: agreement.mismatches,
    compared: agreement.compared,
  };
}

describe("webhooks (openapi.yaml webhooks:)", () => {
  it("a webhook pairs with its subscription field: payload compared, owner and scopes read", () => {
    const { contract, problems, mismatches, compared } = read();
    assert.deepEqual(problems, []);
    assert.deepEqual(mismatches, []);
    assert.ok(compared.includes("NoteChange"), compared.join(", "));
    assert.deepEqual(
      contract.webhooks.map(({ name, field, owner, scopes }) => ({ name, field, owner, scopes })),
      [
        {
          name: "noteChanged",
          field: "noteChanged",
          owner: { resource: "authors", by: "authorId" },
          scopes: ["notes:read"],
        },
      ],
    );
    // Paired by the webhook: the subscription field needs no @unpaired, and its resolver lives in the webhook's tag's file.
    assert.equal(contract.fields.find((f) => f.coordinate === "Subscription.noteChanged")!.tag, "notes");
  });

  it("a payload that differs from the subscription's type is named field by field", () => {
    const { mismatches } = read((doc) => {
      doc.components.schemas.NoteChange.properties.title = { type: "integer" };
      delete doc.components.schemas.NoteChange.properties.sentAt;
      doc.components.schemas.NoteChange.required.pop();
    });
    assert.deepEqual(mismatches.map((m) => `${m.kind} ${m.at}`).sort(), [
      "missing-in-rest NoteChange.sentAt",
      "type NoteChange.title",
    ]);
  });

  it("an inline payload is compared too", () => {
    const { mismatches } = read((doc) => {
      const inline = noteChange();
      (inline.properties as any).extra = { type: "string" };
      doc.webhooks.noteChanged = webhook(inline);
    });
    assert.deepEqual(
      mismatches.map((m) => `${m.kind} ${m.at} ${m.restAt}`),
      ["missing-in-graphql NoteChange.extra webhooks.noteChanged.data.extra"],
    );
  });

  it("the payload must name the event's owner as the subscription does", () => {
    const { problems } = read(
      (doc) => {
        const p = doc.components.schemas.NoteChange;
        p.properties.ownerId = p.properties.authorId;
        delete p.properties.authorId;
        p.required = ["noteId", "ownerId", "title", "sentAt"];
      },
      sdlText.replace(/(type NoteChange \{[^}]*?)authorId: ID!/, "$1ownerId: ID!"),
    );
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.match(
      problems[0],
      /#\/webhooks\/noteChanged\/post\/requestBody: webhook noteChanged: .*must carry authorId \(required\)/,
    );
  });

  it("names a webhook that pairs with no subscription field, has no envelope, or is not a POST", () => {
    const { problems } = read((doc) => {
      doc.webhooks.noteChanged = webhook(undefined, "Query.note");
      doc.webhooks.bare = {
        post: {
          ...webhook().post,
          "x-graphql": "Subscription.noteChanged",
          requestBody: { content: { "application/json": { schema: noteChange() } } },
        },
      };
      doc.webhooks.fetched = { get: webhook().post };
    });
    assert.equal(problems.length, 3, problems.join("\n"));
    assert.match(
      problems.join("\n"),
      /#\/webhooks\/noteChanged\/post: webhook noteChanged: x-graphql must name the subscription field .*; Query\.note is not one/,
    );
    assert.match(
      problems.join("\n"),
      /#\/webhooks\/bare\/post\/requestBody: webhook bare: the body is application\/json, the envelope \{ type, timestamp, data \}/,
    );
    assert.match(
      problems.join("\n"),
      /#\/webhooks\/fetched: webhook fetched: a delivery is one POST to the receiver: declare post only \(not get\)/,
    );
  });

  it("x-emitted-by names the operations that emit the event: each an operation that changes something", () => {
    const ok = read((doc) => (doc.webhooks.noteChanged.post["x-emitted-by"] = ["patchNote"]));
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.contract.webhooks[0].emittedBy, ["patchNote"]);
    assert.deepEqual(read().contract.webhooks[0].emittedBy, [], "optional");
    const { problems } = read(
      (doc) => (doc.webhooks.noteChanged.post["x-emitted-by"] = ["patchNote", "nope", "getNote", "patchNote"]),
    );
    assert.deepEqual(problems, [
      "openapi.yaml#/webhooks/noteChanged/post/x-emitted-by: webhook noteChanged: x-emitted-by names nope, which is no operation of openapi.yaml",
      "openapi.yaml#/webhooks/noteChanged/post/x-emitted-by: webhook noteChanged: x-emitted-by names getNote, a GET: an event is emitted by an operation that changes something",
      "openapi.yaml#/webhooks/noteChanged/post/x-emitted-by: webhook noteChanged: x-emitted-by names patchNote twice",
    ]);
    assert.match(
      read((doc) => (doc.webhooks.noteChanged.post["x-emitted-by"] = [])).problems.join("\n"),
      /x-emitted-by lists the operationIds whose success emits the event/,
    );
  });

  it("without webhooks, nothing changes", () => {
    const { contract, problems } = read((doc) => {
      delete doc.webhooks;
      delete doc.components.schemas.NoteChange;
    }, unpairedSdl);
    assert.deepEqual(problems, []);
    assert.deepEqual(contract.webhooks, []);
  });

  it("with the part webhook-endpoints included, its operations pair and agree, and are the framework's: no file, no stub", () => {
    const { contract, problems, mismatches } = read(undefined, undefined, true);
    assert.deepEqual(problems, []);
    assert.deepEqual(mismatches, []);
    const part = [...contract.operations].filter(([, o]) => o.part === "webhook-endpoints").map(([id]) => id);
    assert.deepEqual(part.sort(), [
      "createWebhookEndpoint",
      "deleteWebhookEndpoint",
      "getWebhookEndpoint",
      "listWebhookAttempts",
      "listWebhookEndpoints",
      "redeliverWebhookEvents",
      "rotateWebhookEndpointSecret",
      "updateWebhookEndpoint",
    ]);
    assert.ok(contract.fields.filter((f) => f.part).length >= 8);
    assert.deepEqual(contract.parts, ["webhook-endpoints"]);
    assert.ok(contract.scopes["webhooks:write"]);
    const tags = tagsWithFiles(contract);
    assert.ok(!tags.rest.includes("webhook-endpoints") && !tags.graphql.includes("webhook-endpoints"));
    const root = mkdtempSync(join(tmpdir(), "part-stubs-"));
    try {
      const added = syncStubs(contract, parse(restText), { root, check: true }).flatMap((c) => c.added);
      for (const id of part) assert.ok(!added.includes(id), `no stub for ${id}`);
      assert.ok(!added.some((a) => /Webhook/.test(a)), added.join(", "));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
