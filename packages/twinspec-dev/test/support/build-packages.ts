// Run by npm test (test/support/suites.mjs) before its parts start: the workspace packages' dist/ that the kit's
// child mochas and the type-checks of applications made by init read, built when a source is newer, so that no two
// parts build one at the same time.
import { ensurePackagesBuilt } from "./compiled.js";

ensurePackagesBuilt(["twinspec-client", "twinspec-dev"]);
