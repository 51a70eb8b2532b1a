// `npm run dev`: regenerate from the specs, then serve. `tsx watch` restarts this on any change to the
// specs or the source; regeneration writes only files that differ, so it does not trigger itself again.
import { syncGenerated } from "./codegen/generate.js";

const { stale } = await syncGenerated();
if (stale.length > 0) console.log(`regenerated: ${stale.join(", ")}`);
await import("./main.js");
