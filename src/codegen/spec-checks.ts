// What `npm run generate` checks before it writes anything: the two specs agree with each other, and what changed
// since git HEAD in a way that breaks existing clients (fatal only with --strict).
import { readFileSync } from "node:fs";
import { atHead, graphqlChanges, openapiChanges, parseOpenapi, type Change } from "./breaking.js";
import { checkAgreement, formatAgreement, type AgreementConfig } from "./spec-agreement.js";
import { agreementConfig } from "./spec-agreement.config.js";
import { capabilities } from "./capabilities.js";
import { checkScopes, formatScopes } from "./scope-agreement.js";
import { loadDocument } from "./spec.js";

export interface SpecCheckOptions {
  openapi?: string;
  graphql?: string;
  strict?: boolean;
  config?: AgreementConfig;
  cwd?: string;
}

export interface SpecCheckReport {
  failed: boolean;
  /** for stdout: what passed */
  info: string[];
  /** for stderr: what failed or deserves a look */
  problems: string[];
}

export function runSpecChecks({ openapi = "openapi.yaml", graphql = "schema.graphql", strict = false, config = agreementConfig, cwd }: SpecCheckOptions = {}): SpecCheckReport {
  const report: SpecCheckReport = { failed: false, info: [], problems: [] };
  const restDoc = loadDocument(openapi);
  const sdl = readFileSync(graphql, "utf8");

  const { mismatches, compared } = checkAgreement(restDoc, sdl, config, openapi);
  if (mismatches.length > 0) {
    report.failed = true;
    report.problems.push(formatAgreement(mismatches, { rest: openapi, graphql }));
  } else {
    const intended = Object.keys(config.intended).length;
    report.info.push(`${openapi} and ${graphql} agree on ${compared.length} types (${intended} intended differences declared)`);
  }

  const scopeMismatches = checkScopes(restDoc, sdl, capabilities, openapi);
  if (scopeMismatches.length > 0) {
    report.failed = true;
    report.problems.push(formatScopes(scopeMismatches));
  } else {
    report.info.push(`REST and GraphQL need the same scopes for all ${Object.keys(capabilities).length} paired capabilities`);
  }

  const changes: [string, Change][] = [];
  const skipped: string[] = [];
  for (const [file, diff] of [
    [openapi, (old: string) => openapiChanges(parseOpenapi(old), restDoc)],
    [graphql, (old: string) => graphqlChanges(old, sdl)],
  ] as const) {
    const head = atHead(file, cwd);
    if ("missing" in head) skipped.push(`${file} (${head.missing})`);
    else for (const change of diff(head.text)) changes.push([file, change]);
  }
  const breaking = changes.filter(([, c]) => c.severity === "breaking");
  const dangerous = changes.filter(([, c]) => c.severity === "dangerous");
  const list = (items: [string, Change][]) => items.map(([file, c]) => `  ${file}  ${c.at}: ${c.message}`);
  if (breaking.length > 0) {
    if (strict) report.failed = true;
    report.problems.push(
      [`${breaking.length} change(s) since git HEAD break existing clients${strict ? " (fatal: --strict)" : ""}:`, ...list(breaking)].join("\n"),
    );
  }
  if (dangerous.length > 0) report.problems.push([`${dangerous.length} change(s) since git HEAD may surprise existing clients:`, ...list(dangerous)].join("\n"));
  if (breaking.length === 0) report.info.push(`no breaking changes since git HEAD${skipped.length ? ` (not compared: ${skipped.join(", ")})` : ""}`);
  return report;
}
