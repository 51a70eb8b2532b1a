// The types of a generated REST SDK: what the generator writes per operation (OperationSpec, read at run time) and
// what the compiler derives from openapi-typescript's operation types (arguments, outcomes, typed headers).
import type { Token } from "../token.js";

export type Method = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";

/** What the spec says of one operation that the runtime acts on. */
export interface OperationSpec {
  method: Method;
  /** the path template, e.g. "/books/{bookId}" */
  path: string;
  /**
   * May a call be sent again after 429, 503 or a lost connection? "safe" (GET, HEAD, OPTIONS) and "idempotent"
   * (PUT, DELETE) by method, "key" when the operation declares an Idempotency-Key header, else "never".
   */
  retry: "safe" | "idempotent" | "key" | "never";
  /** the Idempotency-Key header as the spec spells it: the client makes one per call when the caller gave none */
  idempotencyKey?: string;
  /** the media type of the request body the client sends */
  body?: string;
  /** the response headers the spec declares, as it spells them */
  headers?: readonly string[];
  /** answers Link pages: where the 200 body holds a page's items ("" when the body is the array) */
  items?: string;
  /** answers 200 text/event-stream: read with the client's `events(operationId, …)` */
  events?: true;
  /** the resources it reads, first its own (query keys); writes invalidate the first of `writes` and the rest */
  reads?: readonly string[];
  writes?: readonly string[];
}

export type OperationTable<O> = { readonly [K in keyof O]: OperationSpec };

type Params<Op> = Op extends { parameters: infer P } ? P : {};
type Field<P, K extends string> = K extends keyof P ? P[K] : undefined;
/** `{ name: T }`, `{ name?: T }` when T may be left out, nothing when the operation has none. */
type Part<Name extends string, T> = [Exclude<T, undefined>] extends [never]
  ? {}
  : undefined extends T
    ? { [N in Name]?: Exclude<T, undefined> }
    : {} extends T
      ? { [N in Name]?: T }
      : { [N in Name]: T };
type BodyPart<Op> = Op extends { requestBody?: infer B }
  ? [Exclude<B, undefined>] extends [never]
    ? {}
    : Exclude<B, undefined> extends { content: infer C }
      ? undefined extends B
        ? { body?: C[keyof C] }
        : { body: C[keyof C] }
      : {}
  : {};

/** hey-api's argument shape: `{ path?, query?, headers?, body? }`, each present and required as the spec says. */
export type ArgsOf<Op> = Part<"path", Field<Params<Op>, "path">> &
  Part<"query", Field<Params<Op>, "query">> &
  Part<"headers", Field<Params<Op>, "header">> &
  BodyPart<Op>;

type Responses<Op> = Op extends { responses: infer R } ? R : never;
type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;
/** The headers the spec declares for one response, by their spelling; required ones are always there. */
export type HeadersOf<R> = R extends { headers: infer H }
  ? { [K in keyof H as string extends K ? never : K]: string }
  : {};
type StatusOf<S> = S extends number ? S : S extends `${infer N extends number}` ? N : number;

export interface OutcomeBase {
  status: number;
  body: unknown;
  headers: object;
  /** the fetch Response, its body already read */
  response: Response;
}

/** One member per status the operation declares: testing `status` narrows `body` and `headers`. */
export type OutcomeOf<Op> = {
  [S in keyof Responses<Op>]: {
    status: StatusOf<S>;
    body: ContentOf<Responses<Op>[S]>;
    headers: HeadersOf<Responses<Op>[S]>;
    response: Response;
  };
}[keyof Responses<Op>];

export type { Token } from "../token.js";

export interface RetryOptions {
  /** tries in all, the first included (default 4) */
  attempts?: number;
  /** the most a call waits between its tries, in all, in ms (default 30 000): a longer Retry-After ends the retries */
  maxWait?: number;
  /** the first wait after a lost connection or a 429/503 without Retry-After, in ms, doubled each time (default 200) */
  baseDelay?: number;
}

export interface RestClientOptions {
  /** where the API is served, e.g. "https://api.example.com" (paths are appended) */
  baseUrl: string;
  /** a bearer token, or a function giving one: called for each request, and again once after a 401 */
  token?: Token;
  fetch?: typeof fetch;
  /** retries of safe, idempotent and keyed operations (on by default); false turns them off */
  retry?: RetryOptions | false;
  /** headers sent with every request */
  headers?: Record<string, string>;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** more headers for this call only */
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
}

type Call<Op> =
  {} extends ArgsOf<Op>
    ? (args?: ArgsOf<Op>, options?: CallOptions) => Promise<OutcomeOf<Op>>
    : (args: ArgsOf<Op>, options?: CallOptions) => Promise<OutcomeOf<Op>>;

/** The body of the operation's responses of these statuses (200, or the 2xx ones...). */
export type BodyOf<Op, S> = ContentOf<Responses<Op>[Extract<keyof Responses<Op>, S>]>;
type OkBody<Op> = NonNullable<BodyOf<Op, 200>>;
type ElementOf<T> = T extends readonly (infer I)[] ? I : unknown;
export type ItemOf<Op, Items> = Items extends ""
  ? ElementOf<OkBody<Op>>
  : Items extends keyof OkBody<Op>
    ? ElementOf<OkBody<Op>[Items]>
    : unknown;

/** The operations that answer Link pages (their spec has `items`). */
export type PagedIds<T> = { [K in keyof T]: T[K] extends { items: string } ? K : never }[keyof T];

/** The operations that answer event streams (their spec has `events: true`). */
export type StreamIds<T> = { [K in keyof T]: T[K] extends { events: true } ? K : never }[keyof T];

/** One message of an event stream: its event id (what a reconnect resumes after) and its data, as JSON. */
export interface StreamEvent<T> {
  id?: string;
  /** the SSE event name ("message" unless the server named it) */
  event: string;
  data: T;
}

export interface EventsOptions extends CallOptions {
  /** resume after this event id (sent as Last-Event-ID), e.g. the last one a previous run received */
  lastEventId?: string;
  /** wait before reconnecting, in ms (default 1 000; a `retry:` from the server replaces it) */
  reconnectDelay?: number;
  /** consecutive failed connections before giving up (default 5) */
  maxReconnects?: number;
  /** false: end the iteration when the stream ends instead of reconnecting */
  reconnect?: false;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** the first wait between two polls without Retry-After, in ms (default 250), growing to `maxInterval` (2 000) */
  interval?: number;
  maxInterval?: number;
}

export interface RestHelpers<O, T> {
  /** Every item of every page: calls the operation, then follows `Link: <…>; rel="next"` until there is none. */
  paginate<K extends PagedIds<T> & keyof O>(
    operationId: K,
    ...args: Parameters<Call<O[K]>>
  ): AsyncIterableIterator<ItemOf<O[K], T[K] extends { items: infer I } ? I : never>>;
  /** The page after this one (its `Link: rel="next"`), or undefined on the last page. */
  nextPage<R extends OutcomeBase>(page: R, options?: CallOptions): Promise<R | undefined>;
  /**
   * An event stream's messages as they come; when the connection drops or the server ends the stream, it reconnects
   * with Last-Event-ID set to the last id received, so each event arrives once and in order. An answer other than
   * 200 (an id older than the server keeps: 410) throws a RestError. Breaking out of the loop closes the connection.
   */
  events<K extends StreamIds<T> & keyof O>(
    operationId: K,
    args: ArgsOf<O[K]>,
    options?: EventsOptions,
  ): AsyncIterableIterator<StreamEvent<NonNullable<BodyOf<O[K], 200>>>>;
  /** For a 202 whose Location names a job: polls it (honouring Retry-After) until it is no longer pending; its last representation. */
  waitFor<B>(accepted: { status: 202; body: B; response: Response }, options?: WaitOptions): Promise<B>;
}

/** A generated SDK: one method per operationId, and the helpers. */
export type RestClient<O, T = OperationTable<O>> = { [K in keyof O]: Call<O[K]> } & RestHelpers<O, T>;
