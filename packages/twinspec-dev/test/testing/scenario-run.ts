// Run by scenarios.test.ts in a child mocha: the workflows of ARAZZO_FILE against the fixture, then what the
// coverage gate would say of the pairs they asked for (printed, one line each).
import { after } from "mocha";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { coverageOf, describeScenarios } from "../../src/testing/index.js";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.ts")).href);

describeScenarios(definition, { file: process.env.ARAZZO_FILE });
after(() => {
  for (const line of coverageOf(definition).missing.filter((m: string) =>
    /^(createAuthor 201|getNote 410|deleteNote 204|getAuthor 404):/.test(m),
  ))
    console.log(`left: ${line}`);
});
