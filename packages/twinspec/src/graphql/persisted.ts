// Persisted documents: a request may name its document instead of sending it, in either convention —
//   - the client preset's `documentId` ("sha256:<hex>", as in client/generated/graphql/persisted-documents.json;
//     the bare hex is accepted too), looked up in that manifest;
//   - Apollo's automatic persisted queries: `extensions.persistedQuery { version: 1, sha256Hash }` without the
//     text; an unknown hash answers PERSISTED_QUERY_NOT_FOUND and the client retries with the text and the hash,
//     which registers it (checked against the hash) in a per-instance LRU.
// With `only` (GRAPHQL_PERSISTED_ONLY=true) the manifest is a safelist: documents it lacks are refused, whether
// named or sent as text, and nothing is registered.
import { createHash } from "node:crypto";
import { GraphQLError } from "graphql";
import { Lru } from "./lru.js";

export interface PersistedOptions {
  /** document id (`sha256:` + hex) → text: the client preset's manifest */
  documents: Readonly<Record<string, string>>;
  /** refuse every document the manifest lacks */
  only?: boolean;
  /** documents registered by automatic persisted queries, kept per instance (default 1000) */
  cacheSize?: number;
}

/** What a request says about its document (GraphQL over HTTP parameters, a graphql-ws or SSE payload). */
export interface DocumentParams {
  query?: unknown;
  documentId?: unknown;
  extensions?: unknown;
}

/** The text to run, or why there is none; undefined when the request carries its text and needs nothing. */
export type Resolution =
  | { query: string; errors?: undefined }
  | { errors: readonly GraphQLError[]; query?: undefined }
  | undefined;

const HEX = /^[0-9a-f]{64}$/;
/** Longer texts are run but not registered (bounds the registry's memory, as the parse cache does). */
const MAX_REGISTERED = 20_000;

const refusal = (code: string, message: string) => ({ errors: [new GraphQLError(message, { extensions: { code } })] });
const badRequest = (message: string) => refusal("BAD_REQUEST", message);
// The message Apollo's clients also recognise, beside the code.
const notFound = () => refusal("PERSISTED_QUERY_NOT_FOUND", "PersistedQueryNotFound");
const notInList = () =>
  refusal(
    "PERSISTED_QUERY_NOT_IN_LIST",
    "This server runs only the GraphQL documents its clients shipped (GRAPHQL_PERSISTED_ONLY); this one is not among them.",
  );

const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

export function createPersistedDocuments({ documents, only = false, cacheSize = 1000 }: PersistedOptions) {
  const manifest = new Map(Object.entries(documents));
  const shipped = new Set(manifest.values());
  const registered = new Lru<string, string>(cacheSize);

  /** An id of either form → its text: the manifest first, then (unless persisted-only) what APQ registered. */
  function lookup(id: string): string | undefined {
    const hex = id.startsWith("sha256:") ? id.slice(7) : HEX.test(id) ? id : undefined;
    return (
      manifest.get(id) ??
      (hex === undefined ? undefined : (manifest.get(`sha256:${hex}`) ?? (only ? undefined : registered.get(hex))))
    );
  }

  function resolve(params: DocumentParams): Resolution {
    // graphql-ws and graphql-sse demand a string query: an empty one stands for "by id" there.
    const text = typeof params.query === "string" && params.query !== "" ? params.query : undefined;
    const persistedQuery = (params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
    if (params.documentId != null) {
      if (typeof params.documentId !== "string") return badRequest("documentId must be a string");
      if (text !== undefined) return badRequest("Send either query or documentId, not both.");
      const found = lookup(params.documentId);
      if (found !== undefined) return { query: found };
      return only
        ? notInList()
        : refusal("PERSISTED_QUERY_NOT_FOUND", `No persisted document has the id "${params.documentId.slice(0, 80)}".`);
    }
    if (persistedQuery != null) {
      const { version, sha256Hash } = persistedQuery as { version?: unknown; sha256Hash?: unknown };
      if (version !== 1 || typeof sha256Hash !== "string" || !HEX.test(sha256Hash)) {
        return badRequest("extensions.persistedQuery must be { version: 1, sha256Hash: <64 lowercase hex digits> }.");
      }
      if (text === undefined) {
        const found = lookup(sha256Hash);
        return found !== undefined ? { query: found } : only ? notInList() : notFound();
      }
      if (sha256Hex(text) !== sha256Hash) return badRequest("provided sha does not match query");
      if (manifest.has(`sha256:${sha256Hash}`)) return { query: text };
      if (only) return notInList();
      if (text.length <= MAX_REGISTERED) registered.set(sha256Hash, text);
      return { query: text };
    }
    if (only && text !== undefined && !shipped.has(text)) return notInList();
    return undefined;
  }

  return { resolve, only };
}
