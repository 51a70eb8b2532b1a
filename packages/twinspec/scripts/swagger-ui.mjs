// The /docs page's assets, prebuilt: the three files the page loads from swagger-ui-dist (its bundle, stylesheet and
// icon), with its licence texts and a VERSION file (the version the page's asset URLs carry, so browsers may keep
// them for good), copied under assets/swagger-ui/, which the package ships and src/http/docs.ts serves. So
// swagger-ui-dist (12 MB, and @scarf/scarf with its install script) is this package's devDependency, not what a
// deployed application installs. Run by `npm run build` (and so by prepack); `twinspec build` in a checkout runs it
// when the assets are missing or from another swagger-ui-dist version.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What src/http/docs.ts serves; the rest is not served (the licences, VERSION). */
const SERVED = ["swagger-ui-bundle.js", "swagger-ui.css", "favicon-32x32.png"];
const LICENCES = ["LICENSE", "NOTICE", "swagger-ui-bundle.js.LICENSE.txt"];

const pkg = fileURLToPath(new URL("..", import.meta.url));
const out = join(pkg, "assets/swagger-ui");

const dir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of [...SERVED, ...LICENCES]) copyFileSync(join(dir, file), join(out, file));
writeFileSync(join(out, "VERSION"), `${version}\n`);
console.error(`copied swagger-ui-dist ${version}'s page assets to assets/swagger-ui`);
