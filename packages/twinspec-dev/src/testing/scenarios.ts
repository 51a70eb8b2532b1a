// Scenarios: the business flows an application describes as Arazzo 1.0 workflows next to its openapi.yaml
// (workflows.arazzo.yaml), run step by step against a real server, once over REST and once over GraphQL. Each step
// names an operation (operationId), gives its parameters and body with runtime expressions ($inputs,
// $steps.<id>.outputs.<name>, $response.body#/…), checks its success criteria and hands its outputs to the steps after
// it. A step whose criteria ask for a status ($statusCode == 409) asks the server for it, so its REST answer counts
// toward the coverage gate. In the GraphQL run each step goes through the root field its operation is paired with
// (scenario-graphql.ts); a step GraphQL cannot say runs over REST within it, since a change over one transport is
// visible over the other, and a workflow with no step over GraphQL is not run twice.
import assert from "node:assert/strict";
import { describe, it as mochaIt } from "mocha";
import type { AppDefinition } from "twinspec/internals";
import {
  loadEvaluator,
  quiet,
  readWorkflows,
  statusesAskedBy,
  type Evaluator,
  type Step,
  type Workflow,
} from "./arazzo.js";
import { call } from "./client.js";
import { asking } from "./coverage.js";
import { after, before, it } from "./pending.js";
import { graphqlPlan, sendOverGraphql, type GraphqlPlan } from "./scenario-graphql.js";
import { startServer, type TestServer, type TestServerOptions } from "./server.js";
import { specOf, type Operation } from "./spec.js";

/** How the scenarios run; every field is optional. */
export interface ScenarioOptions {
  /** the Arazzo document (default the project's workflows.arazzo.yaml; none there: no scenario) */
  file?: string;
  /** what the test server is started with (a migrations folder, the application's middleware, …) */
  server?: TestServerOptions;
}

/** What a step's answer is, whichever transport carried it: what its criteria and outputs read. */
interface Answer {
  statusCode: number | undefined;
  body: unknown;
  header: Record<string, string>;
  /** the request, as a failure shows it */
  shown: string;
  /** the answer, as a failure shows it */
  answer: string;
}

/**
 * Registers every workflow of the project's workflows.arazzo.yaml as mocha tests run against a real server, over
 * REST and over GraphQL: each step's operation (or its paired root field) sent with its parameters and body (runtime
 * expressions evaluated), its success criteria checked, its outputs passed on. A failure names the workflow, the
 * step, the transport, the criterion and the request; a stub met on the way is pending.
 *
 * @param definition - the application: generated/wiring.ts's `definition` (its specs are read from the project's root)
 * @param options - the Arazzo file and the server's options (`ScenarioOptions`); default the project's file
 */
export function describeScenarios(definition: AppDefinition, options: ScenarioOptions = {}): void {
  const doc = readWorkflows(options.file);
  if (!doc?.workflows?.length) return;
  const spec = specOf(definition);
  const { operations, sampleBody } = spec;
  const operationOf = (step: Step) => operations.find((o) => o.operationId === step.operationId);

  describe("scenarios: the workflows of workflows.arazzo.yaml", function () {
    this.timeout(60_000);
    let s: TestServer;
    let evaluator: Evaluator;
    before(async () => {
      evaluator = await loadEvaluator();
      s = await startServer(definition, options.server);
    });
    after(() => s?.close());

    const title = (workflow: Workflow) => `${workflow.workflowId}${workflow.summary ? `: ${workflow.summary}` : ""}`;
    describe("over REST", () => {
      for (const workflow of doc.workflows ?? []) it(title(workflow), () => run(workflow));
    });

    describe("over GraphQL (each step through its operation's paired root field)", () => {
      for (const workflow of doc.workflows ?? []) {
        const plans = workflow.steps.map((step): GraphqlPlan => {
          const op = operationOf(step);
          return op ? graphqlPlan(spec, definition, op, step) : { over: "rest", why: "no operation" };
        });
        const overRest = workflow.steps
          .map((step, i) => [step, plans[i]] as const)
          .filter(([, plan]) => plan.over === "rest")
          .map(([step, plan]) => `${step.stepId}: ${(plan as { why: string }).why}`);
        if (overRest.length === workflow.steps.length) {
          // Run over GraphQL it would be its REST run again.
          mochaIt.skip(`${workflow.workflowId}: no step runs over GraphQL (${overRest.join("; ")})`);
          continue;
        }
        it(`${title(workflow)}${overRest.length ? ` (over REST: ${overRest.join("; ")})` : ""}`, () =>
          run(workflow, plans));
      }
    });

    /**
     * Runs the workflow's steps in order, each over REST or as its plan says.
     *
     * @param workflow - the workflow
     * @param plans - how each step runs in the GraphQL run; none: every step over REST
     */
    async function run(workflow: Workflow, plans?: GraphqlPlan[]) {
      const inputs = Object.fromEntries(
        Object.entries(workflow.inputs?.properties ?? {}).map(([name, p]) => [name, p.default ?? p.example]),
      );
      const steps: Record<string, { outputs: Record<string, unknown> }> = {};
      for (const [i, step] of workflow.steps.entries()) {
        const op = operationOf(step);
        const plan = plans?.[i];
        const named = `scenario ${workflow.workflowId}, step ${step.stepId}`;
        assert.ok(
          op,
          `${named}: no operation ${step.operationId ?? step.operationPath ?? step.workflowId} in openapi.yaml (the kit runs steps by operationId)`,
        );
        const where = `${named} (${op.operationId}, over ${plan?.over === "graphql" ? `GraphQL: ${plan.coordinate}` : "REST"})`;
        const context = {
          $inputs: inputs,
          $steps: steps,
          $workflows: {},
          $sourceDescriptions: {},
          $faker: {},
        } as Record<string, unknown>;
        const value = (v: unknown) =>
          evaluator.evaluateRuntimeExpressionPayload({ payload: v, context, logger: quiet });
        const answer =
          plan?.over === "graphql" ? await overGraphql(plan, op, step, value) : await overRest(named, op, step, value);
        Object.assign(context, {
          $response: { body: answer.body, header: answer.header, statusCode: answer.statusCode },
          $statusCode: answer.statusCode,
        });
        const shown = `${answer.shown} → ${answer.answer}`;
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
              `${where}: criterion ${JSON.stringify(criterion.condition)} cannot be evaluated (${(error as Error).message.split("\n")[0]}): ${shown}`,
            );
          }
          if (met !== true) assert.fail(`${where}: criterion ${JSON.stringify(criterion.condition)} not met: ${shown}`);
        }
        const output = (name: string, expression: string) => {
          try {
            return evaluator.evaluateRuntimeExpression(expression, context, quiet);
          } catch (error) {
            return assert.fail(
              `${where}: output ${name} (${JSON.stringify(expression)}) cannot be evaluated (${(error as Error).message.split("\n")[0]}): ${shown}`,
            );
          }
        };
        steps[step.stepId] = {
          outputs: Object.fromEntries(
            Object.entries(step.outputs ?? {}).map(([name, expression]) => [name, output(name, expression)]),
          ),
        };
      }
    }

    /** The step sent over REST, asking for the statuses its criteria name (for the coverage gate). */
    async function overRest(named: string, op: Operation, step: Step, value: (v: unknown) => unknown): Promise<Answer> {
      const { url, init, shown } = request(op, step, value);
      const expected = statusesAskedBy(step);
      init.headers = { ...init.headers, ...asking(named, expected.length ? expected : "any") };
      const res = await call(`${s.url}${url}`, init);
      return {
        statusCode: res.status,
        body: res.json ?? res.text,
        header: Object.fromEntries(res.headers),
        shown,
        answer: `${res.status} ${res.text.slice(0, 300)}`,
      };
    }

    /** The step sent through its paired root field: its path and query parameters and its body as arguments. */
    function overGraphql(
      plan: Extract<GraphqlPlan, { over: "graphql" }>,
      op: Operation,
      step: Step,
      value: (v: unknown) => unknown,
    ): Promise<Answer> {
      const params = Object.fromEntries((step.parameters ?? []).map((p) => [p.name, value(p.value)]));
      const body =
        step.requestBody?.payload !== undefined
          ? value(step.requestBody.payload)
          : op.body
            ? sampleBody(op)?.body
            : undefined;
      return sendOverGraphql(
        s.url,
        plan,
        spec.graphqlInputs[plan.coordinate],
        op,
        step,
        { params, body },
        definition.contract.relations,
      );
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
      shown: `${op.method} ${url}${Object.keys(headers).length ? ` ${JSON.stringify(headers)}` : ""}${body !== undefined ? ` ${JSON.stringify(body).slice(0, 300)}` : ""}`,
    };
  }
}
