// From an operation's arguments to a request (URL, headers, body), and from a response to an outcome.
import type { OperationSpec, OutcomeBase } from "./types.js";

/** A parameter's or field's values: a list, or one value; null and undefined left out. */
const valuesOf = (value: unknown): unknown[] =>
  (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined && v !== null);
/** A value as the text of a path segment, a query parameter, a header or a form field: a scalar as String() writes it, an object as JSON. */
const textOf = (value: unknown): string =>
  typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);

export interface Args {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
}

/** The path template filled (each value percent-encoded) and the query appended: arrays repeat their key (form, exploded). */
export function urlOf(baseUrl: string, spec: OperationSpec, args: Args): string {
  const path = spec.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = args.path?.[name];
    if (value === undefined || value === null)
      throw new TypeError(`${spec.method} ${spec.path}: path parameter "${name}" is missing`);
    return encodeURIComponent(textOf(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args.query ?? {})) {
    for (const one of valuesOf(value)) query.append(name, textOf(one));
  }
  const search = query.size ? `?${query}` : "";
  return `${baseUrl.replace(/\/+$/, "")}${path}${search}`;
}

export function setHeaders(target: Headers, source: Record<string, unknown> | undefined) {
  for (const [name, value] of Object.entries(source ?? {}))
    if (value !== undefined && value !== null) target.set(name, textOf(value));
}

/** The body as the operation's media type wants it; the Content-Type is set unless the platform sets it (forms). */
export function bodyOf(spec: OperationSpec, body: unknown, headers: Headers): RequestInit["body"] {
  if (body === undefined) return undefined;
  const type = spec.body ?? "application/json";
  if (/[/+]json\b/.test(type)) {
    headers.set("content-type", type);
    return JSON.stringify(body);
  }
  if (type === "application/x-www-form-urlencoded" && isRecord(body)) {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) for (const one of valuesOf(value)) form.append(name, textOf(one));
    return form;
  }
  if (type === "multipart/form-data" && isRecord(body) && !(body instanceof FormData)) {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      for (const one of valuesOf(value)) {
        form.append(
          name,
          one instanceof Blob
            ? one
            : typeof one === "object"
              ? new Blob([JSON.stringify(one)], { type: "application/json" })
              : textOf(one),
        );
      }
    }
    return form;
  }
  if (!headers.has("content-type") && !(body instanceof FormData))
    headers.set("content-type", body instanceof Blob && body.type ? body.type : type);
  return body as RequestInit["body"];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !(value instanceof Blob);

/** Reads the response: JSON for JSON media types, text for text/*, a Blob otherwise; nothing for 204/304 and HEAD. */
export async function outcomeOf(
  response: Response,
  spec: Pick<OperationSpec, "method" | "headers">,
): Promise<OutcomeBase> {
  const headers: Record<string, string> = {};
  for (const name of spec.headers ?? []) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const type = response.headers.get("content-type") ?? "";
  let body: unknown;
  if (response.status === 204 || response.status === 304 || spec.method === "HEAD") body = undefined;
  else if (/[/+]json\b/.test(type)) {
    const text = await response.text();
    body = text ? JSON.parse(text) : undefined;
  } else if (type.startsWith("text/") || type === "") {
    const text = await response.text();
    body = text || undefined;
  } else body = await response.blob();
  return { status: response.status, body, headers, response };
}
