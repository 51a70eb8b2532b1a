// A synthetic OpenAPI document with N operations, for the generator and router benchmarks: resources with list
// (query params), create (JSON body), read, patch and delete, plus the one route the router bench measures.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const TARGET = "/target/{id}";

export function syntheticSpec(operations: number): object {
  const paths: Record<string, object> = {};
  const schemas: Record<string, object> = {
    Problem: {
      type: "object",
      required: ["type", "title", "status"],
      properties: { type: { type: "string" }, title: { type: "string" }, status: { type: "integer" } },
    },
    Item: {
      type: "object",
      required: ["id", "name"],
      properties: { id: { type: "integer" }, name: { type: "string", maxLength: 100 } },
    },
  };
  const problem = {
    description: "problem",
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  };
  const id = { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } };
  // The measured route: path + query validation, JSON answer (also what bench/rest-server.ts hand-writes).
  paths[TARGET] = {
    get: {
      operationId: "getTarget",
      parameters: [id, { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100 } }],
      responses: {
        "200": {
          description: "ok",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
        },
        "400": problem,
      },
    },
  };
  for (let n = 0, r = 0; n < operations - 1; r++) {
    const name = `Resource${r}`;
    schemas[name] = {
      type: "object",
      additionalProperties: false,
      required: ["name"],
      properties: {
        name: { type: "string", minLength: 1 },
        size: { type: "integer", minimum: 0 },
        tags: { type: "array", items: { type: "string" } },
      },
    };
    const body = {
      required: true,
      content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
    };
    const one = {
      description: "ok",
      content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
    };
    const ops: [string, string, object][] = [
      [
        `/r${r}`,
        "get",
        {
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer" } },
            { name: "ids", in: "query", schema: { type: "array", items: { type: "integer" } } },
          ],
          responses: {
            "200": {
              description: "ok",
              content: {
                "application/json": { schema: { type: "array", items: { $ref: `#/components/schemas/${name}` } } },
              },
            },
            "400": problem,
          },
        },
      ],
      [`/r${r}`, "post", { requestBody: body, responses: { "201": one, "400": problem } }],
      [`/r${r}/{id}`, "get", { parameters: [id], responses: { "200": one, "404": problem } }],
      [
        `/r${r}/{id}`,
        "patch",
        {
          parameters: [id],
          requestBody: { required: true, content: { "application/merge-patch+json": { schema: { type: "object" } } } },
          responses: { "200": one, "404": problem },
        },
      ],
      [`/r${r}/{id}`, "delete", { parameters: [id], responses: { "204": { description: "gone" }, "404": problem } }],
    ];
    for (const [path, method, op] of ops) {
      if (n++ >= operations - 1) break;
      paths[path] = {
        ...(paths[path] ?? {}),
        [method]: { operationId: `${method}${name}${path.includes("{") ? "ById" : ""}`, ...op },
      };
    }
  }
  return { openapi: "3.1.0", info: { title: `synthetic ${operations}`, version: "1" }, paths, components: { schemas } };
}

/** Writes the document as JSON under dir; returns its path. */
export function writeSpec(dir: string, operations: number): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `synthetic-${operations}.json`);
  writeFileSync(file, JSON.stringify(syntheticSpec(operations), null, 1));
  return file;
}
