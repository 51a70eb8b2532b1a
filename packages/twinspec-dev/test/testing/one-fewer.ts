// Run by transport-agreement.test.ts in a child mocha: the REST collections compared with their GraphQL relations on
// the fixture (TWINSPEC_ROOT); with ONE_FEWER set, every GraphQL answer reaches the kit with the last item of each
// list under `parent` dropped — what a relation listing one item fewer than its REST collection answers.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describeTransportAgreement } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);

if (process.env.ONE_FEWER) {
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const res = await real(input, init);
    if (!String(input).endsWith("/graphql")) return res;
    const body = (await res.json()) as { data?: { parent?: Record<string, unknown> } };
    for (const value of Object.values(body.data?.parent ?? {})) if (Array.isArray(value)) value.pop();
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  };
}

describeTransportAgreement(definition);
