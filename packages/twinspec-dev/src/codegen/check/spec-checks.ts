// What `npm run generate` checks before it writes anything: the two specs agree with each other (types, pairing,
// scopes, resources, ownership), openapi.yaml declares every status and conditional header the server can answer,
// and what changed since git HEAD in a way that breaks existing clients (fatal only with --strict).
import { readFileSync } from "node:fs";
import { buildSchema, type GraphQLSchema } from "graphql";
import { atHead, graphqlChanges, openapiChanges, parseOpenapi, type Change } from "./breaking.js";
import { checkAgreement, formatAgreement, type AgreementConfig } from "./spec-agreement.js";
import { agreementConfig } from "./spec-agreement.config.js";
import { readContract, type Contract, type ContractProblem } from "../model/contract.js";
import { checkHttpContract } from "./http-checks.js";
import { collectOperations, type Operation } from "../model/operations.js";
import { checkScopes, formatScopes } from "./scope-agreement.js";
import { loadDocument, type JsonObject } from "../load/spec.js";
import { graphqlWithParts, withParts } from "../load/parts.js";

export interface SpecCheckOptions {
  openapi?: string;
  graphql?: string;
  strict?: boolean;
  /** compare with the specs at git HEAD (default true; `twinspec dev` leaves it out of its loop) */
  head?: boolean;
  config?: AgreementConfig;
  cwd?: string;
}

export interface SpecCheckReport {
  failed: boolean;
  /** openapi.yaml as read (not bundled), the parts it includes merged in: what the stubs, models.ts and the stamp read too, so it is parsed once */
  document: JsonObject;
  /** schema.graphql as read, the parts' SDL after it */
  sdl: string;
  /** that SDL built once, for every check and for what generate reads of it */
  schema: GraphQLSchema;
  /** what the specs state together (complete only when nothing failed) */
  contract: Contract;
  /** openapi.yaml's operations, as the checks read them */
  operations: Operation[];
  /** for stdout: what passed */
  info: string[];
  /** for stdout, always: what could not be checked */
  notes: string[];
  /** for stderr: what failed or deserves a look */
  problems: string[];
}

export function runSpecChecks({
  openapi = "openapi.yaml",
  graphql = "schema.graphql",
  strict = false,
  head = true,
  config = agreementConfig,
  cwd,
}: SpecCheckOptions = {}): SpecCheckReport {
  // Both specs with the Twinspec parts openapi.yaml includes (load/parts.ts): checked like the rest of them.
  const rawDoc = loadDocument(openapi);
  const restDoc = withParts(openapi, rawDoc);
  const rawSdl = readFileSync(graphql, "utf8");
  const sdl = graphqlWithParts(openapi, rawSdl, rawDoc);
  const schema = buildSchema(sdl);
  const operations = collectOperations(restDoc, openapi);

  const { mismatches, compared, restProperties } = checkAgreement(restDoc, schema, config, openapi);
  const { contract, problems } = readContract(restDoc, operations, schema, (type) => restProperties.get(type), {
    rest: openapi,
    graphql,
  });
  const report: SpecCheckReport = {
    failed: false,
    document: restDoc,
    sdl,
    schema,
    contract,
    operations,
    info: [],
    notes: [],
    problems: [],
  };
  if (mismatches.length > 0) {
    report.failed = true;
    report.problems.push(formatAgreement(mismatches, { rest: openapi, graphql }));
  } else {
    report.info.push(`${openapi} and ${graphql} agree on ${compared.length} types`);
  }
  const contractProblems = [
    ...problems,
    ...checkHttpContract(operations, openapi, new Set(Object.keys(contract.rateLimits.rest))),
  ];
  if (contractProblems.length > 0) {
    report.failed = true;
    report.problems.push(formatContract(contractProblems));
  } else {
    const paired = [...contract.operations.values()].filter((o) => o.graphql).length;
    report.info.push(
      `${contract.resources.length} resources; ${paired} of ${operations.length} operations paired with GraphQL fields, every status and conditional header the server answers declared`,
    );
  }

  // The fields x-graphql names after an operation's first (relations reading what it reads) share its scopes too.
  const alsoPaired = (id: string, first: string) =>
    contract.fields.filter((f) => f.operationId === id && f.coordinate !== first).map((f) => f.coordinate);
  const pairs = Object.fromEntries(
    [...contract.operations].flatMap(([id, o]) => (o.graphql ? [[id, [o.graphql, ...alsoPaired(id, o.graphql)]]] : [])),
  );
  const scopeMismatches = checkScopes(restDoc, schema, pairs, openapi);
  if (scopeMismatches.length > 0) {
    report.failed = true;
    report.problems.push(formatScopes(scopeMismatches));
  } else {
    report.info.push(`REST and GraphQL need the same scopes for all ${Object.keys(pairs).length} paired operations`);
  }
  if (head) compareWithHead(report, { openapi, graphql, sdl, rawSdl, strict, cwd });
  return report;
}

/** What changed since git HEAD, into `report`: breaking changes (fatal with strict), dangerous ones, or none. */
function compareWithHead(
  report: SpecCheckReport,
  {
    openapi,
    graphql,
    sdl,
    rawSdl,
    strict,
    cwd,
  }: { openapi: string; graphql: string; sdl: string; rawSdl: string; strict: boolean; cwd?: string },
): void {
  const restDoc = report.document;

  const changes: [string, Change][] = [];
  const skipped: string[] = [];
  // Each side as committed, with the parts it included then (none when that document cannot say).
  const headDoc = () => {
    const head = atHead(openapi, cwd);
    if ("missing" in head) return {};
    try {
      return parseOpenapi(head.text);
    } catch {
      return {};
    }
  };
  const partsAtHead = (old: JsonObject) => {
    try {
      return withParts(openapi, old);
    } catch {
      return old;
    }
  };
  for (const [file, diff] of [
    [openapi, (old: string) => openapiChanges(partsAtHead(parseOpenapi(old)), restDoc)],
    [
      graphql,
      (old: string) => {
        const doc = headDoc();
        let before = old;
        try {
          before = graphqlWithParts(openapi, old, doc);
        } catch {
          // the parts of then cannot be included: compared without them
        }
        return graphqlChanges(before, sdl);
      },
    ],
  ] as const) {
    const head = atHead(file, cwd);
    if ("missing" in head) skipped.push(`${file} (${head.missing})`);
    // A spec as committed has nothing to compare: not parsed a second time.
    else if (head.text !== (file === graphql ? rawSdl : readFileSync(file, "utf8")))
      for (const change of diff(head.text)) changes.push([file, change]);
  }
  const breaking = changes.filter(([, c]) => c.severity === "breaking");
  const dangerous = changes.filter(([, c]) => c.severity === "dangerous");
  const list = (items: [string, Change][]) => items.map(([file, c]) => `  ${file}  ${c.at}: ${c.message}`);
  if (breaking.length > 0) {
    if (strict) report.failed = true;
    report.problems.push(
      [
        `${breaking.length} change(s) since git HEAD break existing clients${strict ? " (fatal: --strict)" : ""}:`,
        ...list(breaking),
      ].join("\n"),
    );
  }
  if (dangerous.length > 0)
    report.problems.push(
      [`${dangerous.length} change(s) since git HEAD may surprise existing clients:`, ...list(dangerous)].join("\n"),
    );
  if (breaking.length === 0)
    (skipped.length ? report.notes : report.info).push(
      `no breaking changes since git HEAD${skipped.length ? ` (not compared: ${skipped.join(", ")})` : ""}`,
    );
}

function formatContract(problems: ContractProblem[]): string {
  return [`the specs are incomplete (${problems.length}):`, ...problems.map((p) => `  ${p.at}: ${p.message}`)].join(
    "\n",
  );
}
