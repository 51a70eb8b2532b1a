// Raw strings from the URL and headers → the JSON types the spec declares, before validation.
// A value that does not look like its type is left as it is, so the validator names it.
export type Coercion = "string" | "integer" | "number" | "boolean" | "array" | "none";

export function coerce(raw: string | string[] | undefined, kind: Coercion): unknown {
  if (raw === undefined) return undefined;
  if (kind === "array") return (Array.isArray(raw) ? raw : raw.split(",")).map((v) => v);
  if (Array.isArray(raw)) return raw; // repeated scalar: let validation say "must be <type>"
  switch (kind) {
    case "integer":
      return /^-?\d+$/.test(raw) ? Number(raw) : raw;
    case "number":
      // Decimal notation only: Number() would also take "0x10" or "".
      return /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) ? Number(raw) : raw;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : raw;
    default:
      return raw;
  }
}
