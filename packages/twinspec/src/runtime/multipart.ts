// multipart/form-data request bodies (file uploads), read by @fastify/busboy as the request streams in, never past
// the body limit nor a file part's own (its schema's maxLength): files become UploadedFile values (name, media type,
// size, bytes), other parts are coerced like form fields by their declared type (objects as JSON, OpenAPI's default
// for complex values).
import type { BusboyHeaders, BusboyInstance } from "@fastify/busboy";
import type { Context } from "koa";
import { JsonProblem, parseJson } from "./json.js";
import { coerceScalar, type Scalar } from "./params.js";
import type { FieldError } from "./problem.js";
import { refusalOf } from "./problems.js";

/** One uploaded file, as the handler receives it. */
export class UploadedFile {
  constructor(
    /** the name the client gave ("" when it gave none) */
    readonly filename: string,
    /** the part's Content-Type (application/octet-stream when it gave none) */
    readonly mediaType: string,
    /** its length, in bytes */
    readonly size: number,
    /** its bytes */
    readonly content: Buffer,
  ) {}
}

/** The schema's type of a multipart body with its file fields as uploaded files (optional ones stay optional). */
export type WithFiles<T, One extends PropertyKey, Many extends PropertyKey> = {
  [K in keyof T]: K extends One ? UploadedFile : K extends Many ? UploadedFile[] : T[K];
};

/** How each declared part is read (see MultipartField in the generator). */
export type MultipartFields = Record<
  string,
  { type: string; items?: string; contentTypes?: string[]; maxBytes?: number }
>;

/** Most parts one body may have: a body of many tiny parts costs far more to parse than its size says. */
const MAX_PARTS = 1000;

const isFileField = (field: MultipartFields[string] | undefined) => field?.type === "file" || field?.type === "files";

/** Does `type` fall under one of the `allowed` media ranges ("image/png", "image/*", "*\/*")? */
export function mediaAllowed(type: string, allowed: string[]): boolean {
  const [main] = type.split("/");
  return allowed.some(
    (range) => range === "*/*" || range === type || (range.endsWith("/*") && range.slice(0, -2) === main),
  );
}

function textValue(name: string, value: string, field: MultipartFields[string] | undefined): unknown {
  if (field?.type === "json") {
    try {
      return parseJson(value);
    } catch (error) {
      if ((error as JsonProblem).reason === "syntax") return value; // validation names it
      throw refusalOf("bad_request", `The multipart part "${name}" is ${(error as JsonProblem).message}.`);
    }
  }
  return coerceScalar(value, ((field?.type === "array" ? field.items : field?.type) ?? "none") as Scalar);
}

/** The body's fields, each file an UploadedFile. Refuses (413) past `limit` bytes, (400) what is not multipart. */
export async function readMultipart(
  ctx: Context,
  limit: number,
  fields: MultipartFields = {},
): Promise<Record<string, unknown>> {
  if (Number(ctx.get("Content-Length")) > limit)
    throw refusalOf("too_large", `The request body is larger than the limit of ${limit} bytes.`);
  // Loaded with the first upload: a server that takes none never loads the parser.
  // CommonJS: its module.exports as `default`, alike under Node and in the package's esbuild bundle (whose chunk for a
  // lazily imported CommonJS module exports only that).
  const { Busboy } = (await import("@fastify/busboy")).default;
  let busboy: BusboyInstance;
  try {
    busboy = Busboy({
      headers: ctx.req.headers as BusboyHeaders,
      limits: { fieldSize: limit, fileSize: limit, parts: MAX_PARTS },
      // A declared file field is a file even when the client sent no filename.
      isPartAFile: (name, _type, filename) => filename !== undefined || isFileField(fields[name ?? ""]),
    });
  } catch (error) {
    throw refusalOf("bad_request", `The multipart body cannot be read: ${(error as Error).message}.`);
  }
  const out: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    const field = fields[name];
    if (field?.type === "array" || field?.type === "files") out[name] = [...((out[name] as unknown[]) ?? []), value];
    else out[name] = name in out ? [...[out[name]].flat(), value] : value; // a repeated single value: validation names it
  };
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    let received = 0;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(busboy);
      ctx.req.resume(); // drain the rest, so the answer can be written
      reject(error);
    };
    const tooLarge = () => fail(refusalOf("too_large", `The request body is larger than the limit of ${limit} bytes.`));
    ctx.req.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) tooLarge();
    });
    const incomplete = () => fail(refusalOf("bad_request", "The request body could not be read completely."));
    ctx.req.on("aborted", incomplete);
    ctx.req.on("error", incomplete);
    busboy.on("file", (name, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      const max = fields[name]?.maxBytes;
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // The part's own limit (its schema's maxLength), met while it streams in: not a byte more is kept.
        if (max !== undefined && size > max)
          fail(refusalOf("too_large", `The file in part "${name}" is larger than its limit of ${max} bytes.`));
        else chunks.push(chunk);
      });
      stream.on("limit", tooLarge);
      // A part cut short (the body ends before its closing boundary) errors on the part's own stream, not busboy's.
      stream.on("error", (error: Error) =>
        fail(refusalOf("bad_request", `The multipart body is malformed: ${error.message}.`)),
      );
      stream.on("end", () => {
        const content = Buffer.concat(chunks);
        add(
          name,
          new UploadedFile(
            filename ?? "",
            (mimeType || "application/octet-stream").toLowerCase(),
            content.length,
            content,
          ),
        );
      });
    });
    busboy.on("field", (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) return tooLarge();
      try {
        add(name, textValue(name, value, fields[name]));
      } catch (error) {
        fail(error as Error);
      }
    });
    busboy.on("partsLimit", () => fail(refusalOf("too_large", `The multipart body has more than ${MAX_PARTS} parts.`)));
    busboy.on("error", (error: unknown) =>
      fail(refusalOf("bad_request", `The multipart body is malformed: ${(error as Error).message}.`)),
    );
    busboy.on("finish", () => {
      if (settled) return;
      settled = true;
      resolve();
    });
    ctx.req.pipe(busboy);
  });
  const errors = fileErrors(out, fields);
  if (errors.length > 0) {
    throw refusalOf(
      "validation",
      `The request has ${errors.length} invalid input${errors.length > 1 ? "s" : ""}; see errors.`,
      { errors },
    );
  }
  return out;
}

/** Files where the spec declares them (with the media types `encoding` allows), text elsewhere. */
function fileErrors(body: Record<string, unknown>, fields: MultipartFields): FieldError[] {
  const errors: FieldError[] = [];
  for (const [name, value] of Object.entries(body)) {
    const field = fields[name];
    const pointer = `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    const values = Array.isArray(value) ? value : [value];
    if (isFileField(field)) {
      if (field.type === "file" && values.length > 1)
        errors.push({ in: "body", pointer, message: "must be one file, not several" });
      for (const v of values) {
        if (!(v instanceof UploadedFile)) errors.push({ in: "body", pointer, message: "must be a file" });
        else if (field.contentTypes && !mediaAllowed(v.mediaType, field.contentTypes)) {
          errors.push({
            in: "body",
            pointer,
            message: `has media type ${v.mediaType}; allowed: ${field.contentTypes.join(", ")}`,
          });
        }
      }
    } else if (field && values.some((v) => v instanceof UploadedFile)) {
      errors.push({ in: "body", pointer, message: "must be a value, not a file" });
    }
  }
  return errors;
}

/**
 * What the body's schema is checked against: each file as the string of its bytes (a binary string, which is what
 * the schema declares for it), the rest as it is. Anything but a multipart body is returned unchanged.
 */
export function validationView(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return body;
  const entries = Object.entries(body);
  if (
    !entries.some(
      ([, v]) => v instanceof UploadedFile || (Array.isArray(v) && v.some((x) => x instanceof UploadedFile)),
    )
  )
    return body;
  const asText = (v: unknown) => (v instanceof UploadedFile ? v.content.toString("latin1") : v);
  return Object.fromEntries(entries.map(([k, v]) => [k, Array.isArray(v) ? v.map(asText) : asText(v)]));
}
