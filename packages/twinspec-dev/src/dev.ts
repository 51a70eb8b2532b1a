// `npm run dev`: regenerate from the specs (stubs included), then serve the application (its src/main.ts). `tsx watch`
// restarts this on any change to the specs or the source; regeneration writes only files that differ, so it does not
// trigger itself again.
import { pathToFileURL } from "node:url";
import { generateProject } from "./codegen/project.js";
import { projectFile } from "twinspec/internals";

if (await generateProject()) await import(pathToFileURL(projectFile("src/main.ts")).href);
else console.error("fix the specs; the server starts once they generate");
