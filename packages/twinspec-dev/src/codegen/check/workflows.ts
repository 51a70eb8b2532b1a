// What `generate` checks of workflows.arazzo.yaml (the business flows the test kit runs, optional): first the
// document itself, by Redocly's linter with its Arazzo 1 types and rules (structure, unique ids, source
// descriptions); then that it says only what the specs say — every step's operationId is an operation of
// openapi.yaml, each parameter it gives is one that operation declares, each status its criteria ask for
// ($statusCode == N) is one it declares, each body pointer its criteria and outputs read ($response.body#/a/b) is in
// that answer's schema, and every $steps.<id>.outputs.<name> and $inputs.<name> names what exists. Each finding
// points into the file (file:line:column, and the JSON pointer).
import { existsSync, readFileSync } from "node:fs";
import type { Operation, ResponseSpec } from "../model/operations.js";
import { at, escapePointer, isObject, textOf, type Json, type JsonObject } from "../load/spec.js";

/** The workflows file, beside openapi.yaml. */
export const WORKFLOWS = "workflows.arazzo.yaml";

/** One finding: where in the workflows file, and what. */
export interface WorkflowProblem {
  /** 1-based line and column of the node the finding is about */
  line: number;
  col: number;
  /** its JSON pointer ("/workflows/0/steps/1/operationId") */
  pointer: string;
  message: string;
  /** "error" fails generate; "warn" (a lint rule's advice) is printed only */
  severity: "error" | "warn";
}

/** A finding as printed: `file:line:col: message (#pointer)`. */
export const formatWorkflowProblem = (file: string, p: WorkflowProblem) =>
  `${file}:${p.line}:${p.col}: ${p.severity === "warn" ? "warning: " : ""}${p.message} (#${p.pointer})`;

/** What the check found: how many workflows and steps the file has, and the findings. */
export interface WorkflowReport {
  workflows: number;
  steps: number;
  problems: WorkflowProblem[];
}

/**
 * The findings on `file` (undefined when it does not exist): Redocly's lint of it as Arazzo 1, then its agreement
 * with the operations of openapi.yaml.
 *
 * @param file - the workflows file
 * @param operations - openapi.yaml's operations (collectOperations)
 * @param openapi - openapi.yaml as read, for its $refs
 */
export async function checkWorkflows(
  file: string,
  operations: Operation[],
  openapi: JsonObject,
): Promise<WorkflowReport | undefined> {
  if (!existsSync(file)) return undefined;
  const { BaseResolver, createConfig, getLineColLocation, lintDocument, makeDocumentFromString } = await import(
    "@redocly/openapi-core"
  );
  const document = makeDocumentFromString(readFileSync(file, "utf8"), file);
  const position = (pointer: string, reportOnKey = false) =>
    getLineColLocation({ source: document.source, pointer: `#${pointer}`, reportOnKey }).start;
  const config = await createConfig({ extends: ["recommended"] });
  const problems: WorkflowProblem[] = [];
  for (const found of await lintDocument({
    document,
    config: config.styleguide,
    externalRefResolver: new BaseResolver(config.resolve),
  })) {
    const location = found.location[0];
    const { line, col } = getLineColLocation(location).start;
    problems.push({
      line,
      col,
      pointer: location?.pointer?.replace(/^#/, "") ?? "",
      message: `${found.message}${found.ruleId && found.ruleId !== "struct" ? ` [${found.ruleId}]` : ""}`,
      severity: found.severity === "error" ? "error" : "warn",
    });
  }
  const parsed: JsonObject = isObject(document.parsed) ? document.parsed : {};
  const workflows = Array.isArray(parsed.workflows) ? parsed.workflows : [];
  const report = {
    workflows: workflows.length,
    steps: workflows.reduce<number>((n, w) => n + (isObject(w) && Array.isArray(w.steps) ? w.steps.length : 0), 0),
    problems,
  };
  // A document that is not even the right shape: the checks below would only repeat it.
  if (problems.some((p) => p.severity === "error")) return report;
  for (const { pointer, message, onKey } of agreement(parsed, operations, openapi))
    problems.push({ ...position(pointer, onKey), pointer, message, severity: "error" });
  return report;
}

/** A finding of the agreement checks, before its position is known. */
interface Finding {
  pointer: string;
  message: string;
  onKey?: boolean;
}

/** Every disagreement of the workflows with openapi.yaml's operations, in document order. */
function agreement(doc: JsonObject, operations: Operation[], openapi: JsonObject): Finding[] {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const findings: Finding[] = [];
  const workflows = Array.isArray(doc.workflows) ? doc.workflows : [];
  for (const [w, workflow] of workflows.entries()) {
    if (!isObject(workflow) || !Array.isArray(workflow.steps)) continue;
    const base = `/workflows/${w}`;
    const inputs =
      isObject(workflow.inputs) && isObject(workflow.inputs.properties) ? workflow.inputs.properties : undefined;
    const steps = workflow.steps.filter(isObject);
    const outputsOf = new Map(
      steps.map((s, i) => [textOf(s.stepId), { index: i, names: Object.keys(isObject(s.outputs) ? s.outputs : {}) }]),
    );
    for (const [i, step] of steps.entries()) {
      const here = `${base}/steps/${i}`;
      const name = `step ${textOf(step.stepId)}`;
      const add = (pointer: string, message: string, onKey = false) =>
        findings.push({ pointer, message: `${name}: ${message}`, onKey });

      // What every expression of the step names: earlier steps' outputs, the workflow's inputs.
      for (const [pointer, text] of strings(step, here)) {
        for (const [, id, output] of text.matchAll(/\$steps\.([\w-]+)\.outputs\.([\w.-]+)/g)) {
          const target = outputsOf.get(id);
          if (!target) add(pointer, `$steps.${id} names no step of workflow ${textOf(workflow.workflowId)}`);
          else if (target.index >= i)
            add(
              pointer,
              `$steps.${id} names a step that runs ${target.index === i ? "as this one" : "after this one"}; only earlier steps' outputs exist`,
            );
          else if (!prefixes(output).some((o) => target.names.includes(o)))
            add(pointer, `step ${id} has no output ${output} (its outputs: ${target.names.join(", ") || "none"})`);
        }
        for (const [, input] of text.matchAll(/\$inputs\.([\w-]+)/g))
          if (inputs && !(input in inputs))
            add(pointer, `$inputs.${input}: workflow ${textOf(workflow.workflowId)} has no input ${input}`);
          else if (!inputs && !isObject(workflow.inputs))
            add(pointer, `$inputs.${input}: workflow ${textOf(workflow.workflowId)} declares no inputs`);
      }

      if (typeof step.operationId !== "string") {
        if (step.operationPath !== undefined || step.workflowId !== undefined)
          add(here, "the test kit runs steps by operationId; give the step its operation's operationId", true);
        continue;
      }
      const op = byId.get(step.operationId);
      if (!op) {
        add(`${here}/operationId`, `operationId "${step.operationId}" is not an operation of openapi.yaml`);
        continue;
      }

      for (const [p, param] of (Array.isArray(step.parameters) ? step.parameters : []).entries()) {
        if (!isObject(param) || typeof param.name !== "string") continue; // a reusable parameter ($components…)
        const given = param.name;
        const place = typeof param.in === "string" ? param.in : undefined;
        const same = (n: string) => (place === "header" ? n.toLowerCase() === given.toLowerCase() : n === given);
        if (!op.parameters.some((d) => same(d.name) && (!place || d.in === place)))
          add(
            `${here}/parameters/${p}/name`,
            `${op.operationId} has no ${place ?? ""}${place ? " " : ""}parameter ${given} (it declares: ${op.parameters.map((d) => `${d.in} ${d.name}`).join(", ") || "none"})`,
          );
      }

      const criteria = Array.isArray(step.successCriteria) ? step.successCriteria : [];
      const declared = op.responses.map((r) => r.status);
      const asked: string[] = [];
      for (const [c, criterion] of criteria.entries()) {
        if (!isObject(criterion) || typeof criterion.condition !== "string") continue;
        for (const [, status] of criterion.condition.matchAll(/\$statusCode\s*===?\s*(\d{3})\b/g)) {
          if (statusOf(op, status)) asked.push(statusOf(op, status)!.status);
          else
            add(
              `${here}/successCriteria/${c}/condition`,
              `${op.operationId} does not declare ${status} (it declares ${declared.join(", ")})`,
            );
        }
      }
      // A body pointer is looked for in the answers the step asks for; asking for none, in any success.
      const answers = asked.length
        ? op.responses.filter((r) => asked.includes(r.status))
        : op.responses.filter((r) => /^2/.test(r.status));
      const reads: [string, string][] = [
        ...criteria.flatMap((criterion, c): [string, string][] =>
          isObject(criterion) && typeof criterion.condition === "string"
            ? [[`${here}/successCriteria/${c}/condition`, criterion.condition]]
            : [],
        ),
        ...Object.entries(isObject(step.outputs) ? step.outputs : {}).flatMap(([o, e]): [string, string][] =>
          typeof e === "string" ? [[`${here}/outputs/${escapePointer(o)}`, e]] : [],
        ),
      ];
      for (const [pointer, expression] of reads)
        for (const body of bodyPointers(expression)) {
          const why = missingIn(openapi, answers, body);
          if (why) add(pointer, `${op.operationId}: $response.body#/${body.join("/")} ${why}`);
        }
    }
  }
  return findings;
}

/** The response of `op` that answers `status`: its own, or its range's (4XX). */
const statusOf = (op: Operation, status: string): ResponseSpec | undefined =>
  op.responses.find((r) => r.status === status) ?? op.responses.find((r) => r.status === `${status[0]}XX`);

/** "a.b.c" → ["a.b.c", "a.b", "a"]: output names may hold dots, and what follows one may read into the output. */
const prefixes = (name: string) => name.split(".").map((_, i, all) => all.slice(0, all.length - i).join("."));

/** Every string under `node`, with its JSON pointer from `base`. */
function strings(node: Json | undefined, base: string): [string, string][] {
  if (typeof node === "string") return [[base, node]];
  if (Array.isArray(node)) return node.flatMap((v, i) => strings(v, `${base}/${i}`));
  if (isObject(node)) return Object.entries(node).flatMap(([k, v]) => strings(v, `${base}/${escapePointer(k)}`));
  return [];
}

/** The body pointers an expression reads (`$response.body#/items/0/sku` → ["items", "0", "sku"]), unescaped. */
const bodyPointers = (expression: string): string[][] =>
  [...expression.matchAll(/\$response\.body#((?:\/[^\s/=!<>()&|'"]*)+)/g)].map((m) =>
    m[1]
      .slice(1)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")),
  );

/** Why no answer in `answers` has the body pointer `path` (undefined when one has it). */
function missingIn(openapi: JsonObject, answers: ResponseSpec[], path: string[]): string | undefined {
  const schemas = answers.flatMap((r) => Object.values(r.schemas).map((s) => [r.status, s] as const));
  if (!schemas.length)
    return `is read, but ${answers.map((r) => r.status).join(", ") || "no success"} ${answers.length > 1 ? "have" : "has"} no body`;
  if (schemas.some(([, s]) => has(openapi, s, path, 0))) return undefined;
  return `is not in the body of its ${[...new Set(schemas.map(([status]) => status))].join(" or ")} answer`;
}

/** Whether the schema (through $refs, allOf/anyOf/oneOf) has `path`; what it cannot tell (an open schema) it takes. */
function has(openapi: JsonObject, schema: Json | undefined, path: string[], depth: number): boolean {
  let s = schema;
  for (let hops = 0; isObject(s) && typeof s.$ref === "string" && hops < 50; hops++)
    s = s.$ref.startsWith("#/") ? at(openapi, s.$ref) : undefined;
  if (!path.length || depth > 50) return true;
  if (s === true || s === undefined || (isObject(s) && !Object.keys(s).length)) return true;
  if (!isObject(s)) return false;
  const branches = ["allOf", "anyOf", "oneOf"].flatMap((k) => (Array.isArray(s[k]) ? s[k] : []));
  if (branches.some((b) => has(openapi, b, path, depth + 1))) return true;
  const [head, ...rest] = path;
  const types = [s.type].flat();
  if (/^\d+$/.test(head) && (types.includes("array") || s.items !== undefined))
    return has(openapi, s.items ?? true, rest, depth + 1);
  if (isObject(s.properties) && head in s.properties) return has(openapi, s.properties[head], rest, depth + 1);
  if (isObject(s.additionalProperties) || s.additionalProperties === true || isObject(s.patternProperties)) return true;
  // No properties and no composition: a schema that says nothing of its members lets any through.
  return (
    !branches.length &&
    !isObject(s.properties) &&
    (s.type === undefined || s.type === "object") &&
    s.items === undefined
  );
}
