// node bench/runtime-closure.mjs [--top N] [--json]: what a deployed application installs for the twinspec runtime,
// cheaply, from this checkout's package-lock.json (no install): the closure of packages["packages/twinspec"]'s
// dependencies (and its non-optional peers) under node's resolution, with each resolved folder's size on disk
// (`du`, its own nested node_modules excluded, so nothing counts twice), the largest folders, and each direct
// dependency's tree (what it brings; "alone": what no other direct dependency also needs). Optional peers (the
// OpenTelemetry SDK, pg) are left out, as npm leaves them out; the libraries the runtime bundles into its dist/
// (packages/twinspec/scripts/bundle.mjs) are devDependencies, so they are not in it either. Issue 39's floors for an application made by `init`
// (`npm ci --omit=dev`): ≤ 80 packages, ≤ 60 MB. `npm run bench:fresh-app` measures that install for real.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const top = args.includes("--top") ? Number(args[args.indexOf("--top") + 1]) : 15;
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages;

/** node's lookup: <from>/node_modules/<name>, then each enclosing node_modules up to the root's. */
function resolve(from, name) {
  for (let dir = from; ; ) {
    const at = `${dir}/node_modules/${name}`;
    if (lock[at]) return lock[at].link ? lock[at].resolved : at;
    const up = dir.lastIndexOf("/node_modules/");
    if (up < 0) break;
    dir = dir.slice(0, up);
  }
  const at = `node_modules/${name}`;
  if (lock[at]) return lock[at].link ? lock[at].resolved : at;
  return undefined;
}

function requires(entry) {
  const optionalPeers = new Set(
    Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, m]) => m.optional)
      .map(([n]) => n),
  );
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n));
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/** The folders `from`'s dependencies resolve to, transitively (`from` itself not included). */
function closure(from) {
  const seen = new Set();
  const queue = [from];
  while (queue.length) {
    const at = queue.shift();
    for (const name of requires(lock[at])) {
      const dep = resolve(at, name);
      if (!dep) {
        if (lock[at].optionalDependencies?.[name] || lock[at].peerDependencies?.[name]) continue; // another platform's binary
        throw new Error(`${name} (needed by ${at}) is not in package-lock.json`);
      }
      if (dep === from || seen.has(dep)) continue;
      seen.add(dep);
      queue.push(dep);
    }
  }
  return seen;
}

const start = "packages/twinspec";
const folders = [...closure(start)];
const kb = new Map(
  folders.map((p) => [
    p,
    Number(execFileSync("du", ["-sk", "--exclude=node_modules", join(root, p)], { encoding: "utf8" }).split("\t")[0]),
  ]),
);
const sum = (paths) => [...paths].reduce((s, p) => s + kb.get(p), 0);
const mb = (k) => (k / 1024).toFixed(1);
const name = (p) => p.replace(/^.*node_modules\//, "");

const direct = requires(lock[start])
  .map((n) => resolve(start, n))
  .filter(Boolean);
const trees = direct.map((d) => ({ dep: d, tree: new Set([d, ...closure(d)]) }));
const users = new Map();
for (const { tree } of trees) for (const p of tree) users.set(p, (users.get(p) ?? 0) + 1);
const byDirect = trees
  .map(({ dep, tree }) => ({
    name: name(dep),
    packages: tree.size,
    kb: sum(tree),
    alone: [...tree].filter((p) => users.get(p) === 1),
  }))
  .map((t) => ({ ...t, aloneKb: sum(t.alone), alone: t.alone.length }))
  .sort((a, b) => b.kb - a.kb);
const largest = folders.map((p) => ({ path: p, kb: kb.get(p) })).sort((a, b) => b.kb - a.kb);

if (args.includes("--json"))
  console.log(
    JSON.stringify({ packages: folders.length, megabytes: Number(mb(sum(folders))), byDirect, largest }, null, 2),
  );
else {
  console.log(
    `twinspec runtime closure (package-lock.json): ${folders.length} packages, ${mb(sum(folders))} MB on disk (twinspec itself not counted)`,
  );
  console.log(`\nlargest ${top} folders:`);
  for (const s of largest.slice(0, top)) console.log(`  ${mb(s.kb).padStart(6)} MB  ${s.path}`);
  console.log(`\nby direct dependency (its tree; alone = what no other direct dependency needs):`);
  for (const t of byDirect.slice(0, top))
    console.log(
      `  ${mb(t.kb).padStart(6)} MB ${String(t.packages).padStart(3)} pkgs  ${t.name.padEnd(36)} alone: ${t.alone} pkgs, ${mb(t.aloneKb)} MB`,
    );
}
