// The mock server for the package's tests: the fixture application (test/fixture) answered by buildMockApp on an
// ephemeral 127.0.0.1 port, signing with TEST_SECRET; and a check of its answers against the fixture's openapi.yaml
// made here with Ajv (JSON Schema 2020-12, as OpenAPI 3.1), not with the server's own validators.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  deref,
  escapePointer,
  isObject,
  loadDocument,
  type JsonObject,
} from "../../../twinspec-dev/src/codegen/load/spec.js";
import { createLogger } from "../../src/logger.js";
import { buildMockApp, type MockAppDeps } from "../../../twinspec-dev/src/mock/app.js";
import type { Operation } from "../../../twinspec-dev/src/testing/spec.js";
import { definition } from "../fixture/generated/wiring.js";
import { TEST_SECRET } from "./auth.js";
import { FIXTURE } from "./fixture.js";

export interface MockServer {
  url: string;
  close(): Promise<void>;
}

export async function startMockServer(options: Partial<MockAppDeps> = {}): Promise<MockServer> {
  const app = buildMockApp({
    definition,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    authSecret: TEST_SECRET,
    ...options,
  });
  const server: Server = createServer(app.callback);
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await app.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const doc = loadDocument(join(FIXTURE, "openapi.yaml"));
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(doc, "openapi");

/**
 * What is wrong with an answer to `op` by the fixture's openapi.yaml ([] = nothing): its status is declared, its content
 * type is one the status declares (or none when it declares none), the body matches that media type's schema, required
 * headers are there.
 */
export function mismatches(
  op: Operation,
  answer: { status: number; headers: Headers; json: unknown; text: string },
): string[] {
  const base = `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}/responses`;
  const responses = deref(
    doc,
    doc.paths &&
      (doc.paths as JsonObject)[op.path] &&
      ((doc.paths as JsonObject)[op.path] as JsonObject)[op.method.toLowerCase()],
    "openapi.yaml",
    base,
  ).value.responses as JsonObject;
  if (!(String(answer.status) in responses))
    return [`status ${answer.status} is not declared (${Object.keys(responses).join(", ")})`];
  const { value: response, pointer } = deref(
    doc,
    responses[String(answer.status)],
    "openapi.yaml",
    `${base}/${answer.status}`,
  );
  const problems: string[] = [];
  for (const [name, header] of Object.entries(isObject(response.headers) ? response.headers : {})) {
    if (deref(doc, header, "openapi.yaml", pointer).value.required === true && !answer.headers.has(name))
      problems.push(`header ${name} is required`);
  }
  const content = isObject(response.content) ? response.content : {};
  const type = (answer.headers.get("content-type") ?? "").split(";")[0].trim();
  if (Object.keys(content).length === 0) {
    if (answer.text !== "") problems.push(`no body is declared, got ${type}`);
    return problems;
  }
  if (!(type in content))
    return [...problems, `content type "${type}" is not declared (${Object.keys(content).join(", ")})`];
  const validate = ajv.getSchema(`openapi#${pointer}/content/${escapePointer(type)}/schema`)!;
  // A JSON body is checked as the value it encodes; any other (text, image bytes) as the string it is.
  const body = type === "application/json" || type.endsWith("+json") ? answer.json : answer.text;
  if (!validate(body)) problems.push(...(validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message}`));
  return problems;
}
