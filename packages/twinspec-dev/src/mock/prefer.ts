// RFC 7240 `Prefer` request header, as the mock server reads it (Prism's convention): `code=404` picks a declared
// status, `example=name` a named example, `return=minimal` the 204 an operation declares for it.
import { refusalOf } from "twinspec/internals";

/** Preferences by lower-cased name; values unquoted; parameters after ";" ignored; the first of a name wins. */
export function preferences(header: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const m = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s";]*)))?\s*$/.exec(
      part.split(";")[0],
    );
    if (m && !found.has(m[1].toLowerCase()))
      found.set(m[1].toLowerCase(), (m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1"));
  }
  return found;
}

/** A 400 naming the Prefer header, shaped like the runtime's validation problems. */
export const badPreference = (message: string) =>
  refusalOf("validation", `Prefer: ${message}`, { errors: [{ in: "header", pointer: "/Prefer", message }] });
