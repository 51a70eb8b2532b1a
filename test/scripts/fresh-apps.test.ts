// Issue 39's loop, from the packed tarballs, for three pairs of specs: the starter (one resource, notes), the library
// (packages/twinspec-dev/test/fixtures/library: list relations, a child owned through its parent, an event stream)
// and this repository's own commerce specs. For each, `twinspec init <dir> --openapi … --graphql … --vendor <tarballs>`,
// then `npm install`, `npm test` and `npm start` pass with zero edits: the stubs are reported as pending, and the
// server answers /healthz, a stubbed operation 501 (application/problem+json) and a stubbed root field
// NOT_IMPLEMENTED. In a temporary folder outside the repository, so that the applications resolve nothing from its
// node_modules; removed after (KEEP_FRESH_APPS=1 keeps it, to look into).
//
// Kept to about three minutes of npm test (figures in the commit that added it):
// - The tarballs are packed once (`npm pack -w …`, each package's prepack: build, and twinspec-dev's bundling of
//   twinspec-client), as create-twinspec's vendor/ is, from a staged copy of the packages (test/support/staging.ts),
//   so that the suites running beside this one never load a dist/ or a node_modules half rebuilt.
// - `twinspec init` runs from the packed twinspec-dev and twinspec (their files as the tarballs hold them, extracted
//   into a node_modules of their own), resolving their third-party dependencies, whose versions they pin, through
//   links to this checkout's node_modules: no install is needed before the first application exists.
// - better-sqlite3 is not compiled (3-4 minutes on two cores): its install script is `prebuild-install || node-gyp
//   rebuild`, and prebuild-install first looks in the folder its README's "Local prebuilds" names
//   (`better_sqlite3_local_prebuilds`, here as npm_config_better_sqlite3_local_prebuilds, which npm warns it does
//   not know but passes on) for better-sqlite3-v<version>-node-v<ABI>-<platform>-<arch>.tar.gz. That tarball is made
//   here from this checkout's better_sqlite3.node, compiled by its own `npm ci` from the same version's sources for
//   this Node; nothing is downloaded from GitHub (checked: the installed build/ holds that file and nothing else,
//   where node-gyp would leave its Makefile and objects).
// - One real `npm install` (the starter's, from the tarballs and the npm registry). The three package.json files differ
//   in the application's name alone (checked below), so the library and the commerce applications get a copy of its
//   node_modules (`cp -a`, timestamps kept, so npm trusts node_modules/.package-lock.json) and `npm install
//   --offline`, which links their own client package and unlinks the starter's, and must reach nothing.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { freePort } from "../support/embedded-postgres.js";
import { stageCheckout } from "../support/staging.js";

const ROOT = process.cwd();
const LIBRARY = join(ROOT, "packages/twinspec-dev/test/fixtures/library");
const PACKAGES = ["twinspec", "twinspec-client", "twinspec-dev"];

/** Each application: its specs (none: the starter pair), and a stubbed operation and root field to call on it. */
const APPS = [
  { name: "starter", specs: [], rest: "/notes", graphql: "{ notes { noteId } }" },
  {
    name: "library",
    specs: ["--openapi", join(LIBRARY, "openapi.yaml"), "--graphql", join(LIBRARY, "schema.graphql")],
    rest: "/members/m-1",
    graphql: '{ member(memberId: "m-1") { memberId } }',
  },
  {
    name: "commerce",
    specs: ["--openapi", join(ROOT, "openapi.yaml"), "--graphql", join(ROOT, "schema.graphql")],
    rest: "/customers",
    graphql: "{ customers { customerId } }",
  },
];

/**
 * The environment a user's shell would give: not npm test's own (its npm_package_*, npm_lifecycle_*, a silent
 * loglevel that would hide an install's error), nor a configuration of this repository's servers and tests.
 */
const ENV: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(npm_(config_(package|loglevel)$|package_|lifecycle_)|NODE_OPTIONS$|NODE_ENV$|TWINSPEC_|TEST_|FUZZ_|DATABASE_URL$|AUTH_|PORT$|HOST$|LOG_LEVEL$|RATE_LIMIT)/.test(
          key,
        ),
    ),
  ),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
  npm_config_audit: "false",
};

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** Runs a command to its end; its stdout and stderr together. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = ENV,
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.on("error", reject).on("close", (status) => resolve({ status, output }));
  });
}

/** Runs it and asserts that it succeeded, naming it and showing the end of its output otherwise; its output uncoloured. */
async function ok(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const { status, output } = await run(command, args, cwd, env);
  assert.equal(status, 0, `${command} ${args.join(" ")} (in ${cwd}) exited ${status}:\n${output.slice(-6000)}`);
  return stripVTControlCharacters(output);
}

/** What `npm install` compares: an application's dependencies and its client package's, its own name left out. */
function dependencyLists(dir: string, name: string): object {
  const app = json(join(dir, "package.json"));
  const client = json(join(dir, "client/package.json"));
  const { [`${name}-client`]: own, ...devDependencies } = app.devDependencies;
  return {
    dependencies: app.dependencies,
    devDependencies: { ...devDependencies, "<name>-client": own },
    overrides: app.overrides,
    allowScripts: app.allowScripts,
    client: [client.dependencies, client.bundleDependencies],
  };
}

/** How long each step of the set-up took, printed under the suite's title: the test's cost in npm test, in view. */
const times: string[] = [];
async function timed<T>(step: string, work: Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work;
  times.push(`${step} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

describe("init → npm install → npm test → npm start from the packed tarballs, with zero edits (starter, library, commerce)", function () {
  // Each step of a few seconds to half a minute; npm pack and the one real install the longest.
  this.timeout(600_000);
  let work: string;
  const servers = new Set<number>();

  before(async function () {
    work = mkdtempSync(join(tmpdir(), "twinspec-fresh-apps-"));
    const vendor = join(work, "vendor");
    mkdirSync(vendor);
    await timed(
      "npm pack",
      ok(
        "npm",
        ["pack", "--pack-destination", vendor, ...PACKAGES.flatMap((p) => ["-w", p])],
        stageCheckout(
          join(work, "checkout"),
          PACKAGES.map((p) => `packages/${p}`),
        ),
      ),
    );
    const tarball = (name: string) =>
      join(vendor, readdirSync(vendor).find((f) => new RegExp(`^${name}-\\d[^/]*\\.tgz$`).test(f))!);

    // The CLI as packed: twinspec-dev (with the twinspec-client it bundles) and its peer twinspec, extracted; the rest
    // of node_modules linked, entry by entry, to this checkout's (not its workspace links, nor its bins).
    const cli = join(work, "cli/node_modules");
    for (const name of ["twinspec", "twinspec-dev"]) {
      mkdirSync(join(cli, name), { recursive: true });
      await ok("tar", ["-xzf", tarball(name), "-C", join(cli, name), "--strip-components=1"], work);
    }
    for (const entry of readdirSync(join(ROOT, "node_modules"))) {
      const from = join(ROOT, "node_modules", entry);
      if (!entry.startsWith(".") && !existsSync(join(cli, entry)) && !lstatSync(from).isSymbolicLink())
        symlinkSync(from, join(cli, entry));
    }
    const twinspecDev = join(cli, "twinspec-dev/bin/twinspec.js");
    await timed(
      "3 × twinspec init",
      Promise.all(
        APPS.map(({ name, specs }) =>
          ok(process.execPath, [twinspecDev, "init", join(work, name), ...specs, "--vendor", vendor], work),
        ),
      ),
    );
    const apps = APPS.map(({ name }) => ({ name, dir: join(work, name) }));
    const [first, ...others] = apps;
    for (const { name, dir } of others)
      assert.deepEqual(
        dependencyLists(dir, name),
        dependencyLists(first.dir, first.name),
        `${name}'s package.json installs what ${first.name}'s does`,
      );
    for (const { name, dir } of apps) {
      assert.deepEqual(
        readdirSync(join(dir, "vendor")).sort(),
        PACKAGES.map((p) => basename(tarball(p))).sort(),
        `${name}'s vendor/`,
      );
      assert.equal(
        json(join(dir, "package.json")).dependencies.twinspec,
        `file:vendor/${basename(tarball("twinspec"))}`,
      );
    }

    // better-sqlite3 from a local prebuild of this checkout's addon (see the top of the file).
    const sqlite = dirname(createRequire(join(ROOT, "package.json")).resolve("better-sqlite3/package.json"));
    const addon = join(sqlite, "build/Release/better_sqlite3.node");
    const { version } = json(join(sqlite, "package.json"));
    const runtime = json(join(cli, "twinspec/package.json"));
    const pinned = { ...runtime.peerDependencies, ...runtime.optionalDependencies, ...runtime.dependencies }[
      "better-sqlite3"
    ];
    assert.equal(
      pinned,
      version,
      "the packed twinspec pins the better-sqlite3 this checkout compiled (else it would be compiled again)",
    );
    const glibc =
      process.platform !== "linux" ||
      Boolean(
        (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
      );
    const prebuilds = join(work, "prebuilds");
    mkdirSync(prebuilds);
    const prebuild = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${glibc ? "" : "musl"}-${process.arch}.tar.gz`;
    await ok("tar", ["-czf", join(prebuilds, prebuild), "-C", sqlite, "build/Release/better_sqlite3.node"], work);
    const prebuilt = (dir: string) => {
      const build = join(dir, "node_modules/better-sqlite3/build");
      assert.deepEqual(
        [readdirSync(build), readdirSync(join(build, "Release"))],
        [["Release"], ["better_sqlite3.node"]],
        "the prebuild, not a compile",
      );
      assert.ok(
        readFileSync(join(build, "Release/better_sqlite3.node")).equals(readFileSync(addon)),
        "this checkout's addon",
      );
    };

    await timed(
      "npm install",
      ok("npm", ["install"], first.dir, { ...ENV, npm_config_better_sqlite3_local_prebuilds: prebuilds }),
    );
    prebuilt(first.dir);
    await timed(
      "2 × (cp -a node_modules, npm install --offline)",
      Promise.all(
        others.map(async ({ name, dir }) => {
          await ok("cp", ["-a", join(first.dir, "node_modules"), join(dir, "node_modules")], work);
          await ok("npm", ["install", "--offline"], dir);
          prebuilt(dir);
          assert.equal(realpathSync(join(dir, "node_modules", `${name}-client`)), realpathSync(join(dir, "client")));
          assert.ok(
            !existsSync(join(dir, "node_modules", `${first.name}-client`)),
            `${first.name}'s client package is gone`,
          );
        }),
      ),
    );
    console.log(`    (${times.join(", ")})`);
  });

  after(() => {
    for (const pid of servers) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    if (work && !process.env.KEEP_FRESH_APPS) rmSync(work, { recursive: true, force: true });
  });

  for (const app of APPS) {
    it(`${app.name}: npm test passes, every stub reported as pending`, async () => {
      const output = await ok("npm", ["test"], join(work, app.name));
      assert.match(output, /^ {2}[1-9]\d* passing/m, output.slice(-3000));
      assert.match(output, /^ {2}[1-9]\d* pending/m, output.slice(-3000));
      assert.doesNotMatch(output, /^ {2}\d+ failing/m);
      assert.match(output, /not yet implemented \(stubs answer 501 \/ NOT_IMPLEMENTED; pending above\)/);
    });

    it(`${app.name}: npm start serves /healthz, and the stubs answer 501 (REST) and NOT_IMPLEMENTED (GraphQL)`, async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      // No AUTH_SECRET, as after init: the server makes one for the run and logs an admin token for it.
      const child = spawn("npm", ["start"], {
        cwd: join(work, app.name),
        env: { ...ENV, PORT: String(port), HOST: "127.0.0.1" },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      servers.add(child.pid!);
      const exited = new Promise((resolve) => child.on("exit", resolve));
      let output = "";
      try {
        const token = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`npm start did not listen in 120 s:\n${output}`)), 120_000);
          const onData = (text: string) => {
            output += text;
            const listening = output.includes(`"url":"${url}"`);
            const token = /"token":"([^"]+)"/.exec(output)?.[1];
            if (listening && token) {
              clearTimeout(timer);
              resolve(token);
            }
          };
          child.stdout.setEncoding("utf8").on("data", onData);
          child.stderr.setEncoding("utf8").on("data", onData);
          child.on("exit", (code) => {
            clearTimeout(timer);
            reject(new Error(`npm start exited ${code}:\n${output}`));
          });
        });
        assert.equal((await fetch(`${url}/healthz`)).status, 200);
        const headers = { authorization: `Bearer ${token}` };
        const rest = await fetch(`${url}${app.rest}`, { headers });
        const text = await rest.text();
        assert.equal(rest.status, 501, text);
        assert.match(rest.headers.get("content-type") ?? "", /^application\/problem\+json/);
        assert.equal(JSON.parse(text).status, 501, text);
        const graphql = await fetch(`${url}/graphql`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ query: app.graphql }),
        });
        const body = (await graphql.json()) as { errors?: { extensions?: { code?: string } }[] };
        assert.equal(body.errors?.[0]?.extensions?.code, "NOT_IMPLEMENTED", JSON.stringify(body));
      } finally {
        // npm start's group (npm, its shell, the server), by npm's PID, which leads it.
        try {
          process.kill(-child.pid!, "SIGTERM");
        } catch {
          // the group is gone already
        }
        await exited;
        servers.delete(child.pid!);
      }
    });
  }
});
