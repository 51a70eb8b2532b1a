// Reads and parses a request body by its media type, within a size limit. The one body reader of the server: REST
// bodies (readBody) and GraphQL POST bodies (src/graphql/koa.ts) both come through readBytes; multipart/form-data
// alone streams through busboy (multipart.ts), which parses parts as they arrive and limits each.
import { isUtf8 } from "node:buffer";
import type { Readable } from "node:stream";
import type { Context } from "koa";
import { readMultipart, type MultipartFields } from "./multipart.js";
import { JsonProblem, parseJson } from "./json.js";
import { coerceScalar, type Scalar } from "./params.js";
import { HttpError } from "./problem.js";
import { refusalOf } from "./problems.js";

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

function parseForm(text: string, fields: FormFields = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const field = fields[key];
    if (field?.type === "array")
      out[key] = [...((out[key] as unknown[]) ?? []), coerceScalar(value, (field.items ?? "none") as Scalar)];
    else if (key in out)
      out[key] = [...[out[key]].flat(), value]; // repeated scalar: validation names it
    else out[key] = coerceScalar(value, (field?.type ?? "none") as Scalar);
  }
  return out;
}

/** The 413 detail of REST bodies (GraphQL's, older, omits "the limit of"; each kept as its clients know it). */
const tooLargeDetail = (limit: number) => `The request body is larger than the limit of ${limit} bytes.`;
const INCOMPLETE = "The request body could not be read completely.";

/**
 * The body's bytes, within `limit`: 413 at once when Content-Length (`length`) declares more, else as soon as the
 * stream passes it; 400 when it ends short of Content-Length, the client goes away, or the stream was already read or
 * decoded. What raw-body's getRawBody did for us, without its decoder objects and bookkeeping per request. A body in
 * one chunk, the common case, is that chunk, not a copy.
 */
export function readBytes(
  req: Readable,
  limit: number,
  length: string | undefined,
  tooLarge = tooLargeDetail,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const expected = length === undefined || length === "" ? NaN : Number(length);
    // Not read: Node discards the unread body once the answer is sent, so the connection can go on.
    if (expected > limit) return reject(refusalOf("too_large", tooLarge(limit)));
    if (req.readableEncoding || !req.readable) return reject(refusalOf("bad_request", INCOMPLETE));
    let chunks: Buffer[] | undefined;
    let first: Buffer | undefined;
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      // The rest of the body stays unread on the connection: it closes after the answer, so the client does not send
      // its next request where the server cannot read it.
      if (received > limit) return fail(refusalOf("too_large", tooLarge(limit), {}, { Connection: "close" }));
      if (!first) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    const onEnd = () => {
      // Node's parser ends a body at its Content-Length; a stream of another kind may not.
      if (received !== expected && !Number.isNaN(expected)) return fail();
      cleanup();
      resolve(chunks ? Buffer.concat(chunks, received) : (first ?? Buffer.alloc(0)));
    };
    // An error, or the stream closed before its end (the client went away or stalled past the request timeout:
    // not a server fault).
    const fail = (error?: unknown) => {
      cleanup();
      req.unpipe();
      req.pause();
      reject(error instanceof HttpError ? error : refusalOf("bad_request", INCOMPLETE));
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", fail);
      req.off("close", fail);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", fail);
    req.on("close", fail);
  });
}

const UTF8 = /^utf-?8$/i;

/**
 * Bytes as text in `charset` (UTF-8 when none is given), a leading BOM dropped: what TextDecoder answers. UTF-8 by
 * Buffer#toString, its shortest path (the same text as TextDecoder's), once the bytes are known to be UTF-8: a
 * malformed sequence would become U+FFFD and be stored without a word, so it is refused (400). A charset
 * TextDecoder does not know → 415.
 */
export function decodeText(bytes: Buffer, charset = ""): string {
  if (charset !== "" && !UTF8.test(charset)) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      throw refusalOf("unsupported_media_type", `Unsupported charset "${charset}"; send UTF-8.`);
    }
  }
  if (!isUtf8(bytes))
    throw refusalOf(
      "bad_request",
      "The request body is not valid UTF-8; send its text encoded as UTF-8 (RFC 8259 requires it of JSON).",
    );
  const text = bytes.toString();
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export async function readBody(
  ctx: Context,
  type: string,
  limit: number,
  fields?: FormFields,
  parts?: MultipartFields,
): Promise<unknown> {
  const kind = bodyKind(type);
  if (kind === "multipart") return readMultipart(ctx, limit, parts);
  const raw = await readBytes(ctx.req, limit, ctx.get("Content-Length"));
  if (kind === "bytes") return raw;
  const text = decodeText(raw, ctx.request.charset);
  if (kind === "json") {
    try {
      return parseJson(text);
    } catch (error) {
      const problem = error as JsonProblem;
      const message = problem.reason === "syntax" ? "malformed JSON" : problem.message;
      throw refusalOf("bad_request", `The request body is ${problem.message}`, {
        errors: [{ in: "body", pointer: "", message }],
        ...(problem.limit ? { limit: problem.limit } : {}),
      });
    }
  }
  return kind === "form" ? parseForm(text, fields) : text;
}

/** The media type of an event stream: an operation answering it (200) is served by its paired subscription. */
export const EVENT_STREAM = "text/event-stream";
