// The parts of an Arazzo 1.0 document (workflows.arazzo.yaml) the kit runs, how it reads one, and the evaluator of
// runtime expressions it runs them with: Redocly Respect's (@redocly/respect-core/runtime-expressions), loaded when a
// project has workflows.
import { existsSync, readFileSync } from "node:fs";
import { parse } from "yaml";
import { projectFile } from "twinspec/internals";

/** One success criterion of a step. */
interface Criterion {
  condition: string;
  context?: string;
  type?: string;
}
/** One parameter a step gives its operation. */
interface StepParameter {
  name: string;
  in?: string;
  value: unknown;
}
/** One step of a workflow. */
export interface Step {
  stepId: string;
  operationId?: string;
  operationPath?: string;
  workflowId?: string;
  parameters?: StepParameter[];
  requestBody?: { contentType?: string; payload?: unknown };
  successCriteria?: Criterion[];
  outputs?: Record<string, string>;
}
/** One workflow. */
export interface Workflow {
  workflowId: string;
  summary?: string;
  inputs?: { properties?: Record<string, { default?: unknown; example?: unknown }> };
  steps: Step[];
}
/** An Arazzo document, as far as the kit reads it. */
export interface Arazzo {
  arazzo?: string;
  workflows?: Workflow[];
}

/** Respect's evaluator logs through this; the kit reports through its failures. */
export const quiet = { info: () => {}, warn: () => {}, error: () => {}, output: () => {} };

/** The two functions of Respect's evaluator the kit calls, typed by what it passes them. */
export interface Evaluator {
  evaluateRuntimeExpression(expression: unknown, context: object, logger: object): unknown;
  evaluateRuntimeExpressionPayload(options: { payload: unknown; context: object; logger: object }): unknown;
}
/**
 * Respect's evaluator, loaded when a project has workflows. The specifier is held in a variable so that TypeScript
 * does not read the module's published types: they reach Respect's whole document model (json-schema-to-ts), which
 * every type-aware lint and type-check of this package would otherwise build, for two functions typed above.
 */
const EVALUATOR: string = "@redocly/respect-core/runtime-expressions";
export const loadEvaluator = (): Promise<Evaluator> => import(EVALUATOR) as Promise<Evaluator>;

/**
 * The statuses a step's criteria ask for (`$statusCode == 409`); none: it asks for no status.
 *
 * @param step - the step (its successCriteria)
 */
export const statusesAskedBy = (step: Pick<Step, "successCriteria">): number[] =>
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
export function readWorkflows(file = projectFile("workflows.arazzo.yaml")): Arazzo | undefined {
  return existsSync(file) ? (parse(readFileSync(file, "utf8")) as Arazzo) : undefined;
}

/**
 * Every expression a step reads its answer with (its criteria's conditions and its outputs), for the transport that
 * runs it to know what the step reads: `$response.body#/…` pointers, `$response.header.…`.
 *
 * @param step - the step
 */
export const expressionsOf = (step: Step): string[] => [
  ...(step.successCriteria ?? []).map((c) => c.condition).filter((c) => typeof c === "string"),
  ...Object.values(step.outputs ?? {}).filter((o) => typeof o === "string"),
];

/**
 * The body pointers an expression reads (`$response.body#/items/0/sku` → ["items", "0", "sku"]), unescaped (RFC 6901).
 *
 * @param expression - a condition or an output
 */
export const bodyPointers = (expression: string): string[][] =>
  [...expression.matchAll(/\$response\.body#((?:\/[^\s/=!<>()&|'"]*)+)/g)].map((m) =>
    m[1]
      .slice(1)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")),
  );
