// `npm run dev`: regenerate from the specs (stubs included), then serve. `tsx watch` restarts this on any change to
// the specs or the source; regeneration writes only files that differ, so it does not trigger itself again.
import { generateProject } from "./codegen/project.js";

if (await generateProject()) await import("./main.js");
else console.error("fix the specs; the server starts once they generate");
