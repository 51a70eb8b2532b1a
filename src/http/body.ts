// Reads and parses a request body by its media type, within a size limit.
import type { Context } from "koa";
import getRawBody from "raw-body";
import { httpError } from "./problem.js";

/** Media type without parameters, lower case: "application/json; charset=utf-8" → "application/json". */
export const mediaType = (header: string | undefined) => (header ?? "").split(";")[0].trim().toLowerCase();

export const isJson = (type: string) => type === "application/json" || type.endsWith("+json");

export function hasBody(ctx: Context): boolean {
  const length = ctx.get("Content-Length");
  return ctx.get("Transfer-Encoding") !== "" || (length !== "" && length !== "0");
}

export async function readBody(ctx: Context, type: string, limit: number): Promise<unknown> {
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, length: ctx.get("Content-Length") || undefined, encoding: ctx.request.charset || "utf-8" });
  } catch (error) {
    const e = error as { type?: string; status?: number };
    if (e.type === "entity.too.large") throw httpError(413, `The request body is larger than the limit of ${limit} bytes.`);
    if (e.type === "encoding.unsupported") throw httpError(415, `Unsupported charset "${ctx.request.charset}"; send UTF-8.`);
    throw httpError(400, "The request body could not be read completely.");
  }
  if (isJson(type)) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw httpError(400, `The request body is not valid JSON: ${(error as Error).message}`, {
        errors: [{ in: "body", pointer: "", message: "malformed JSON" }],
      });
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  return text;
}
