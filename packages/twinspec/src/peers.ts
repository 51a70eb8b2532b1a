// twinspec's optional peer dependencies (pg, the OpenTelemetry SDK): installed by the application that uses them,
// loaded only then. When one is needed and missing, the start stops with one line that installs it, at the range
// twinspec's package.json accepts.
import { readFileSync } from "node:fs";
import { ownFile } from "./paths.js";

/** An optional peer is needed and not installed; the message says what to run. */
export class PeerNotInstalledError extends Error {
  override name = "PeerNotInstalledError";
}

let peers: Record<string, string> | undefined;

/** `npm install` of the optional peers `wanted` picks, at the ranges twinspec's package.json gives them. */
export function peerInstallLine(wanted: (name: string) => boolean): string {
  peers ??=
    (JSON.parse(readFileSync(ownFile("package.json"), "utf8")) as { peerDependencies?: Record<string, string> })
      .peerDependencies ?? {};
  return `npm install ${Object.entries(peers)
    .filter(([name]) => wanted(name))
    .map(([name, range]) => `${name}@${range}`)
    .join(" ")}`;
}

/** The package an import failed to find, when that is why it failed and the package is one `pattern` matches. */
export function missingPeer(error: unknown, pattern: RegExp): string | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  return new RegExp(`['"](${pattern.source})['"/]`).exec(String(message))?.[1];
}
