// A copy of this checkout's workspace packages (and its client package) to pack from, so that a test's `npm pack`,
// whose prepack scripts rebuild dist/ and assets/ and put bundled packages into node_modules, changes nothing that the
// suites running beside it load. The copy holds each package's files as a clone would (tracked, or new and not
// ignored: no build output, no node_modules), the root's package.json and tsconfig.json, and a node_modules whose
// entries link to this checkout's, the workspace links pointing into the copy instead.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = process.cwd();

/** The files of `folders` a clone would hold with the working tree's changes: tracked or not ignored, and present. */
function sourceFiles(folders: string[]): string[] {
  const listed = execFileSync(
    "git",
    ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...folders],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  return [...new Set(listed.split("\0").filter(Boolean))].filter((file) => existsSync(join(ROOT, file)));
}

/**
 * Links each entry of `from` (a node_modules folder) into `into`: a link into this checkout goes to the staged copy
 * when there is one (the workspaces); `.bin`'s entries are links too, mapped the same way; the hidden lockfile and
 * caches are left out, and the entries named in `leaveOut`.
 */
export function linkModules(
  from: string,
  into: string,
  stage: string,
  leaveOut: ReadonlySet<string> = new Set(),
): void {
  mkdirSync(into, { recursive: true });
  const staged = (target: string) => {
    const inside = relative(ROOT, target);
    return !inside.startsWith("..") && existsSync(join(stage, inside)) ? join(stage, inside) : target;
  };
  for (const entry of readdirSync(from)) {
    const path = join(from, entry);
    if (entry === ".bin") {
      mkdirSync(join(into, entry));
      for (const bin of readdirSync(path))
        symlinkSync(staged(resolve(path, readlinkSync(join(path, bin)))), join(into, entry, bin));
    } else if (!entry.startsWith(".") && !leaveOut.has(entry)) {
      symlinkSync(lstatSync(path).isSymbolicLink() ? staged(realpathSync(path)) : path, join(into, entry));
    }
  }
}

/**
 * Stages `folders` (relative to the checkout: "packages/twinspec", "client", …) under `stage`, which must be new;
 * returns it. `npm pack` (with `-w` for the workspaces) then runs there as it would here.
 */
export function stageCheckout(stage: string, folders: string[]): string {
  mkdirSync(stage, { recursive: true });
  for (const file of ["package.json", "tsconfig.json"]) cpSync(join(ROOT, file), join(stage, file));
  for (const file of sourceFiles(folders)) cpSync(join(ROOT, file), join(stage, file));
  linkModules(join(ROOT, "node_modules"), join(stage, "node_modules"), stage);
  // A package's own node_modules (a version of a dependency that differs from the root's), less what its prepack
  // bundles there.
  for (const folder of folders) {
    const own = join(ROOT, folder, "node_modules");
    if (!existsSync(own)) continue;
    const { bundleDependencies = [] } = JSON.parse(readFileSync(join(ROOT, folder, "package.json"), "utf8"));
    linkModules(own, join(stage, folder, "node_modules"), stage, new Set(bundleDependencies));
  }
  return stage;
}
