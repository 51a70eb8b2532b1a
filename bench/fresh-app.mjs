// npm run bench:fresh-app: the README's first commands, as a new user runs them, timed, on a machine that reaches
// only the npm registry: pack create-twinspec (its prepack builds and packs twinspec, twinspec-dev and
// twinspec-client), `npm exec` it to make an application in a temporary folder outside this repository, then
// `npm install`, `npm test`, `npm run build` and `npm ci --omit=dev` there, and measure what that deployed
// application installs against the floors (issue 39): at most 80 packages and 60 MB, and none of typescript, tsx,
// esbuild, react or @graphql-codegen/*. Then `npm start` from that production install must answer /healthz.
// Minutes of installs from the registry: run by hand (not part of npm test); the figures go into the commit message.
// The loop itself (init, npm install, npm test, npm start with zero edits), for the starter and two other pairs of
// specs, is npm test's: test/scripts/fresh-apps.test.ts.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = new URL("..", import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), "twinspec-fresh-"));
const FORBIDDEN = /(^|\/)node_modules\/(typescript|tsx|esbuild|react|react-dom|@graphql-codegen\/[^/]+)$/;
const FLOORS = { packages: 80, megabytes: 60 };
const times = {};
const env = {
  ...process.env,
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};
for (const key of Object.keys(env)) if (/^npm_(config_package|package_|lifecycle_)/.test(key)) delete env[key];

function step(name, command, args, cwd) {
  const started = performance.now();
  const run = spawnSync(command, args, {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  times[name] = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  console.error(`${name}: ${times[name]} (exit ${run.status})`);
  if (run.status !== 0) {
    console.error(run.stdout.slice(-4000), run.stderr.slice(-4000));
    throw new Error(`${name} failed`);
  }
  return run.stdout;
}

try {
  step(
    "npm pack create-twinspec",
    "npm",
    ["pack", "--silent", "--pack-destination", work],
    join(repo, "packages/create-twinspec"),
  );
  const tarball = join(
    work,
    readdirSync(work).find((f) => /^create-twinspec-.*\.tgz$/.test(f)),
  );
  console.log(
    step(
      "npm exec create-twinspec my-service",
      "npm",
      ["exec", "--yes", "--package", tarball, "--", "create-twinspec", "my-service"],
      work,
    ),
  );
  const app = join(work, "my-service");
  step("npm install", "npm", ["install"], app);
  step("npm test", "npm", ["test"], app);
  step("npm run build", "npm", ["run", "build"], app);
  step("npm ci --omit=dev", "npm", ["ci", "--omit=dev"], app);
  const closure = step("npm ls", "npm", ["ls", "--omit=dev", "--all", "--parseable"], app).trim().split("\n");
  const megabytes = Number(step("du", "du", ["-sm", "node_modules"], app).split("\t")[0]);
  const forbidden = closure.filter((p) => FORBIDDEN.test(p));
  const tree = step("npm ls (top)", "npm", ["ls", "--omit=dev", "--depth=1"], app);
  // npm start from the production install: the compiled dist/app, no compiler, no TypeScript loader.
  const started = performance.now();
  const server = spawn("npm", ["start"], {
    cwd: app,
    env: { ...env, PORT: "3939", HOST: "127.0.0.1", AUTH_SECRET: "a".repeat(32) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr.on("data", (d) => (stderr += d));
  let healthz;
  for (let i = 0; i < 2000 && healthz === undefined; i++) {
    await new Promise((r) => setTimeout(r, 10));
    healthz = await fetch("http://127.0.0.1:3939/healthz").then(
      (r) => r.status,
      () => undefined,
    );
  }
  times["npm start → /healthz"] = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  process.kill(server.pid, "SIGTERM");
  const figures = { times, packages: closure.length, megabytes, forbidden, healthz }; // packages: `npm ls --omit=dev --all --parseable | wc -l`
  console.log(tree);
  console.log(JSON.stringify(figures, null, 2));
  const ok =
    figures.packages <= FLOORS.packages && megabytes <= FLOORS.megabytes && forbidden.length === 0 && healthz === 200;
  if (!ok) {
    console.error(
      `over the floors (≤ ${FLOORS.packages} packages, ≤ ${FLOORS.megabytes} MB, none forbidden, /healthz 200)${healthz === 200 ? "" : `\n${stderr}`}`,
    );
    process.exitCode = 1;
  }
} catch (error) {
  console.error(error.message);
  process.exitCode = 1;
} finally {
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  else console.error(`kept ${work}`);
}
