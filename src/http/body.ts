// Reads and parses a request body by its media type, within a size limit.
import type { Context } from "koa";
import getRawBody from "raw-body";
import { readMultipart, type MultipartFields } from "./multipart.js";
import { coerceScalar, type Scalar } from "./params.js";
import { httpError } from "./problem.js";

/** Media type without parameters, lower case: "application/json; charset=utf-8" → "application/json". */
export const mediaType = (header: string | undefined) => (header ?? "").split(";")[0].trim().toLowerCase();

export const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

/**
 * What a body of this media type becomes for the handler: parsed JSON, form fields, text, multipart/form-data's
 * fields and files, or the raw bytes (other multipart types included).
 */
export type BodyKind = "json" | "form" | "text" | "multipart" | "bytes";
export function bodyKind(type: string): BodyKind {
  if (isJson(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (type.startsWith("text/") || type === "application/xml" || type.endsWith("+xml")) return "text";
  if (type === "multipart/form-data") return "multipart";
  return "bytes";
}

/** How a form field's value(s) become JSON: by the declared property type (arrays from repeated fields). */
export type FormFields = Record<string, { type: string; items?: string }>;

export function hasBody(ctx: Context): boolean {
  const length = ctx.get("Content-Length");
  return ctx.get("Transfer-Encoding") !== "" || (length !== "" && length !== "0");
}

export function parseForm(text: string, fields: FormFields = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const field = fields[key];
    if (field?.type === "array") out[key] = [...((out[key] as unknown[]) ?? []), coerceScalar(value, (field.items ?? "none") as Scalar)];
    else if (key in out) out[key] = [...[out[key]].flat(), value]; // repeated scalar: validation names it
    else out[key] = coerceScalar(value, (field?.type ?? "none") as Scalar);
  }
  return out;
}

export async function readBody(ctx: Context, type: string, limit: number, fields?: FormFields, parts?: MultipartFields): Promise<unknown> {
  const kind = bodyKind(type);
  if (kind === "multipart") return readMultipart(ctx, limit, parts);
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit, length: ctx.get("Content-Length") || undefined });
  } catch (error) {
    const e = error as { type?: string };
    if (e.type === "entity.too.large") throw httpError(413, `The request body is larger than the limit of ${limit} bytes.`);
    throw httpError(400, "The request body could not be read completely.");
  }
  if (kind === "bytes") return raw;
  const charset = (ctx.request.charset || "utf-8").toLowerCase();
  let text: string;
  try {
    text = new TextDecoder(charset, { fatal: false }).decode(raw);
  } catch {
    throw httpError(415, `Unsupported charset "${ctx.request.charset}"; send UTF-8.`);
  }
  if (kind === "json") {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw httpError(400, `The request body is not valid JSON: ${(error as Error).message}`, {
        errors: [{ in: "body", pointer: "", message: "malformed JSON" }],
      });
    }
  }
  return kind === "form" ? parseForm(text, fields) : text;
}
