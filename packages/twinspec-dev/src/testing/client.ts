// How the kit's tests call a test server: fetch with the admin token (unless told otherwise), the body read as JSON
// when it is JSON.
import { PROBLEMS } from "twinspec/internals";
import { NotYetImplemented } from "./pending.js";
import { ADMIN_TOKEN } from "./tokens.js";
import { responseText } from "./body.js";
import { exchangeLine, lastExchange } from "./exchange.js";

/** An answer as the kit's tests read it. */
export interface Reply {
  /** the status */
  status: number;
  /** the response headers */
  headers: Headers;
  /** the body as text ("" when none) */
  text: string;
  /** the body parsed as JSON; undefined when it is empty or not JSON */
  json: any;
}

/**
 * fetch + JSON body (when there is one). Sends the admin token unless the caller sets Authorization itself
 * or passes `anonymous: true`. An answer from a stub (501 with the not-implemented problem type) throws
 * NotYetImplemented, which the kit's tests report as pending.
 *
 * @param url - the whole URL (`${server.url}/books`)
 * @param init - fetch's RequestInit, plus `json` (sent as the body, JSON-serialized, with Content-Type
 *   application/json unless set) and `anonymous` (true: no Authorization header); default a GET with the admin token
 */
export async function call(
  url: string,
  init: RequestInit & { json?: unknown; anonymous?: boolean } = {},
): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (!init.anonymous && !headers.has("authorization")) headers.set("authorization", `Bearer ${ADMIN_TOKEN}`);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const reply = await replyOf(await fetch(url, { ...init, headers, body }));
  const { pathname, search } = new URL(url);
  // The server's own endpoints say nothing of the operation a test is about: not the request a failure shows.
  if (!/^\/(metrics|readyz|healthz)\b/.test(pathname))
    lastExchange.line = exchangeLine(init.method ?? "GET", `${pathname}${search}`, body, reply.status, reply.text);
  const json = reply.json;
  // A stub answered: what the test meant to check is not written yet (pending.ts).
  if (reply.status === PROBLEMS.not_implemented.status && json?.type === PROBLEMS.not_implemented.type)
    throw new NotYetImplemented(stubName(json.detail, url));
  return reply;
}

/** A response as a Reply: its text, and that text as JSON when it is JSON. */
export async function replyOf(res: Response): Promise<Reply> {
  const text = await responseText(res);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * A GraphQL request: POST `${base}/graphql` with `{ query, variables }`, accepting application/graphql-response+json.
 * An error with code NOT_IMPLEMENTED (a stub) throws NotYetImplemented, which the kit's tests report as pending.
 *
 * @param base - the server's URL (`server.url`)
 * @param query - the document
 * @param variables - its variables; default none
 * @param auth - `token`: the bearer token sent (default the admin token; "" sends none)
 */
export async function gql(
  base: string,
  query: string,
  variables?: Record<string, unknown>,
  auth: { token?: string } = {},
) {
  const headers: Record<string, string> = { accept: "application/graphql-response+json" };
  if (auth.token) headers.authorization = `Bearer ${auth.token}`;
  const reply = await call(`${base}/graphql`, {
    method: "POST",
    json: { query, variables },
    headers,
    anonymous: auth.token === "",
  });
  const stub = (reply.json?.errors as { message?: string; extensions?: { code?: string } }[] | undefined)?.find(
    (e) => e.extensions?.code === "NOT_IMPLEMENTED",
  );
  if (stub) throw new NotYetImplemented(stubName(stub.message, "a GraphQL field"));
  return reply;
}

/** "listNotes is declared in the specs but not implemented yet." → "listNotes" (the operation or field it names). */
const stubName = (detail: unknown, fallback: string) =>
  typeof detail === "string" && detail ? detail.split(" ")[0] : fallback;
