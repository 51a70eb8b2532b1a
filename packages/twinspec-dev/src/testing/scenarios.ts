// Scenarios: the business flows an application describes as Arazzo 1.0 workflows next to its openapi.yaml
// (workflows.arazzo.yaml), run step by step against a real server over REST. Each step names an operation
// (operationId), gives its parameters and body with runtime expressions ($inputs, $steps.<id>.outputs.<name>,
// $response.body#/…), checks its success criteria and hands its outputs to the steps after it. A step whose criteria
// ask for a status ($statusCode == 409) asks the server for it, so its answer counts toward the coverage gate.
// Runtime expressions are evaluated by Redocly Respect's evaluator (@redocly/respect-core/runtime-expressions), loaded
// when a project has workflows.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { after, describe } from "mocha";
import { parse } from "yaml";
import type { AppDefinition } from "twinspec/internals";
import { projectFile } from "twinspec/internals";
import { call } from "./client.js";
import { asking } from "./coverage.js";
import { before, it } from "./pending.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf, type Operation } from "./spec.js";

/** How the scenarios run; every field is optional. */
export interface ScenarioOptions {
  /** the Arazzo document (default the project's workflows.arazzo.yaml; none there: no scenario) */
  file?: string;
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

/** The parts of an Arazzo 1.0 document the kit runs. */
interface Criterion {
  condition: string;
  context?: string;
  type?: string;
}
interface Step {
  stepId: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  parameters?: { name: string; in?: string; value: unknown }[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: Criterion[];
  outputs?: Record<string, string>;
}
interface Workflow {
  workflowId: string;
  summary?: string;
  inputs?: { properties?: Record<string, { default?: unknown; example?: unknown }> };
  steps: Step[];
}
interface Arazzo {
  arazzo?: string;
  workflows?: Workflow[];
}

/** Respect's evaluator logs through this; the kit reports through its failures. */
const quiet = { info: () => {}, warn: () => {}, error: () => {}, output: () => {} };

/** The two functions of Respect's evaluator the kit calls, typed by what it passes them. */
interface Evaluator {
  evaluateRuntimeExpression(expression: unknown, context: object, logger: object): unknown;
  evaluateRuntimeExpressionPayload(options: { payload: unknown; context: object; logger: object }): unknown;
}
/**
 * Respect's evaluator, loaded when a project has workflows. The specifier is held in a variable so that TypeScript
 * does not read the module's published types: they reach Respect's whole document model (json-schema-to-ts), which
 * every type-aware lint and type-check of this package would otherwise build, for two functions typed above.
 */
const EVALUATOR: string = "@redocly/respect-core/runtime-expressions";
const loadEvaluator = (): Promise<Evaluator> => import(EVALUATOR) as Promise<Evaluator>;

/** The statuses a step's criteria ask for (`$statusCode == 409`); none: it asks for no status. */
const statusesAskedBy = (step: Pick<Step, "successCriteria">): number[] =>
  (step.successCriteria ?? []).flatMap((c) =>
    [...(typeof c.condition === "string" ? c.condition.matchAll(/\$statusCode\s*===?\s*(\d{3})\b/g) : [])].map((m) =>
      Number(m[1]),
    ),
  );

/**
 * The Arazzo document of the project (or `file`), parsed; undefined when there is none.
 *
 * @param file - its path (default the project's workflows.arazzo.yaml)
 */
function readWorkflows(file = projectFile("workflows.arazzo.yaml")): Arazzo | undefined {
  return existsSync(file) ? (parse(readFileSync(file, "utf8")) as Arazzo) : undefined;
}

/**
 * Registers every workflow of the project's workflows.arazzo.yaml as a mocha test run against a real server over
 * REST: each step's operation sent with its parameters and body (runtime expressions evaluated), its success criteria
 * checked, its outputs passed on. A failure names the workflow, the step, the criterion and the request; a stub met
 * on the way is pending.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - the Arazzo file and the server's options (`ScenarioOptions`); default the project's file
 */
export function describeScenarios(definition: AppDefinition, options: ScenarioOptions = {}): void {
  const doc = readWorkflows(options.file);
  if (!doc?.workflows?.length) return;
  const { operations, sampleBody } = specOf(definition);

  describe("scenarios: the workflows of workflows.arazzo.yaml, over REST", function () {
    this.timeout(60_000);
    let s: TestServer;
    let evaluator: Evaluator;
    before(async () => {
      evaluator = await loadEvaluator();
      s = await startServer(definition, options.server);
    });
    after(() => s?.close());

    for (const workflow of doc.workflows ?? []) {
      it(`${workflow.workflowId}${workflow.summary ? `: ${workflow.summary}` : ""}`, async () => {
        const inputs = Object.fromEntries(
          Object.entries(workflow.inputs?.properties ?? {}).map(([name, p]) => [name, p.default ?? p.example]),
        );
        const steps: Record<string, { outputs: Record<string, unknown> }> = {};
        for (const step of workflow.steps) {
          const op = operations.find((o) => o.operationId === step.operationId);
          const where = `scenario ${workflow.workflowId}, step ${step.stepId}`;
          assert.ok(
            op,
            `${where}: no operation ${step.operationId ?? step.operationPath ?? step.workflowId} in openapi.yaml (the kit runs steps by operationId)`,
          );
          const context = {
            $inputs: inputs,
            $steps: steps,
            $workflows: {},
            $sourceDescriptions: {},
            $faker: {},
          } as Record<string, unknown>;
          const value = (v: unknown) =>
            evaluator.evaluateRuntimeExpressionPayload({ payload: v, context, logger: quiet });
          const { url, init, shown } = request(op, step, value);
          const expected = statusesAskedBy(step);
          init.headers = { ...init.headers, ...asking(where, expected.length ? expected : "any") };
          const res = await call(`${s.url}${url}`, init);
          const response = {
            body: res.json ?? res.text,
            header: Object.fromEntries(res.headers),
            statusCode: res.status,
          };
          Object.assign(context, {
            $response: response,
            $statusCode: res.status,
            $url: url,
            $method: op.method,
            $request: { body: shown.body },
          });
          const answer = `${shown.line} → ${res.status} ${res.text.slice(0, 300)}`;
          for (const criterion of step.successCriteria ?? []) {
            assert.ok(
              !criterion.type || criterion.type === "simple",
              `${where}: criterion ${JSON.stringify(criterion.condition)} is of type ${criterion.type}; the kit evaluates simple conditions only`,
            );
            let met: unknown;
            try {
              met = evaluator.evaluateRuntimeExpression(criterion.condition, context, quiet);
            } catch (error) {
              assert.fail(
                `${where}: criterion ${JSON.stringify(criterion.condition)} cannot be evaluated (${(error as Error).message.split("\n")[0]}): ${answer}`,
              );
            }
            assert.ok(
              met === true,
              `${where} (${op.operationId}): criterion ${JSON.stringify(criterion.condition)} not met: ${answer}`,
            );
          }
          steps[step.stepId] = {
            outputs: Object.fromEntries(
              Object.entries(step.outputs ?? {}).map(([name, expression]) => [
                name,
                evaluator.evaluateRuntimeExpression(expression, context, quiet),
              ]),
            ),
          };
        }
      });
    }
  });

  /** The request a step sends: its path, query and header parameters and its body, evaluated; the sample body when it gives none. */
  function request(op: Operation, step: Step, value: (v: unknown) => unknown) {
    const params = step.parameters ?? [];
    const pick = (place: string) =>
      params.filter((p) => (p.in ?? "query") === place).map((p): [string, string] => [p.name, String(value(p.value))]);
    const pathValues = Object.fromEntries(pick("path"));
    const query = new URLSearchParams(pick("query")).toString();
    const url = `${op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? `${name}-not-given`))}${query ? `?${query}` : ""}`;
    const headers: Record<string, string> = Object.fromEntries(pick("header"));
    const body =
      step.requestBody?.payload !== undefined
        ? value(step.requestBody.payload)
        : op.body
          ? sampleBody(op)?.body
          : undefined;
    if (body !== undefined)
      headers["content-type"] = step.requestBody?.contentType ?? sampleBody(op)?.type ?? "application/json";
    const init: RequestInit & { headers: Record<string, string> } = {
      method: op.method,
      headers,
      redirect: "manual",
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    };
    return {
      url,
      init,
      shown: {
        body,
        line: `${op.method} ${url}${Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ""}${body !== undefined ? ` ${JSON.stringify(body).slice(0, 300)}` : ""}`,
      },
    };
  }
}
