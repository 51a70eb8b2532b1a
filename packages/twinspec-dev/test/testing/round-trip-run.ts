// Run by round-trips.test.ts in a child mocha: the write-read round trips of an application (TWINSPEC_ROOT: the
// fixture, or a copy of it with a planted bug).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describeRoundTrips } from "twinspec-dev/testing";

const { definition } = await import(pathToFileURL(join(process.env.TWINSPEC_ROOT!, "generated/wiring.js")).href);

describeRoundTrips(definition, { file: "test/testing/round-trip-run.ts" });
