// `npm run golden`: rewrites test/golden/<name>/ from its document (after a deliberate generator change).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { generateGolden, GOLDEN } from "./specs.js";

for (const name of Object.keys(GOLDEN) as (keyof typeof GOLDEN)[]) {
  for (const file of await generateGolden(name)) {
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.content);
  }
  console.log(`test/golden/${name}/ written`);
}
