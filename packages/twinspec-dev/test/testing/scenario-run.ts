// Run by scenarios.test.ts in a child mocha: the workflows of ARAZZO_FILE against the fixture, then what the
// coverage gate would say of the pairs they asked for (printed, one line each). With PLANT set, every GraphQL answer
// reaches the kit with a bug of GraphQL's alone: "name", each `name` in upper case; "code", GONE answered as NOT_FOUND.
import { after } from "mocha";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { coverageOf, describeScenarios } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);

const plant = process.env.PLANT;
if (plant) {
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const res = await real(input, init);
    if (!String(input).endsWith("/graphql")) return res;
    const text = (await res.text())
      .replace(/"name":"([^"]*)"/g, (all, name: string) => (plant === "name" ? `"name":"${name.toUpperCase()}"` : all))
      .replace(/"code":"GONE"/g, (all) => (plant === "code" ? `"code":"NOT_FOUND"` : all));
    return new Response(text, { status: res.status, headers: res.headers });
  };
}

describeScenarios(definition, { file: process.env.ARAZZO_FILE });
after(() => {
  for (const line of coverageOf(definition).missing.filter((m: string) =>
    /^(createAuthor 201|getNote 410|deleteNote 204|getAuthor 404):/.test(m),
  ))
    console.log(`left: ${line}`);
});
