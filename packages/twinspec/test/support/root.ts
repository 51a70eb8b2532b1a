// Loaded by mocha before any test file (.mocharc.json "require"): the framework finds an application's specs and
// migrations from TWINSPEC_ROOT (src/paths.ts reads it once, when first imported), so every test of this package —
// and every process it spawns — serves the fixture, whatever the working directory.
import { FIXTURE } from "./fixture.js";

process.env.TWINSPEC_ROOT = FIXTURE;
