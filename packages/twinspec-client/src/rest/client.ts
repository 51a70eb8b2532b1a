// The runtime behind a generated REST SDK: one method per operation of the table the generator wrote, each sending
// the request the spec describes and answering an outcome; retries where the spec makes them safe, with one
// Idempotency-Key per call; Link pages; 202 jobs.
import LinkHeader from "http-link-header";
import { RestError } from "./error.js";
import { bodyOf, outcomeOf, setHeaders, urlOf, type Args } from "./request.js";
import { bearer } from "../token.js";
import { RETRY_STATUSES, RetryBudget, retryAfter, sleep } from "./retry.js";
import { readEvents, type Connect } from "./events.js";
import type {
  CallOptions,
  EventsOptions,
  OperationSpec,
  OperationTable,
  OutcomeBase,
  RestClient,
  RestClientOptions,
  WaitOptions,
} from "./types.js";

/** The statuses of a job that is not done yet (the representation's `status`, in any case). */
const PENDING = /^(pending|queued|accepted|running|started|processing|in[_-]?progress)$/i;

/** Where each outcome was asked for, and the response headers the spec declares there (for the pages after it). */
const sent = new WeakMap<OutcomeBase, { url: string; headers?: readonly string[] }>();

/** A GET of a page's URL, read like the paged operation: for TanStack's infinite queries (query.ts), not public. */
export const FOLLOW = Symbol("twinspec-client follow");

/** A fresh Idempotency-Key: a random (version 4) UUID, also where randomUUID is missing (a page not on https). */
export function newKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createRestRuntime<O, T extends OperationTable<O> = OperationTable<O>>(
  table: T,
  options: RestClientOptions,
): RestClient<O, T> {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const baseUrl = options.baseUrl;

  /** Sends one request, again while the spec allows and the budget lasts; a 401 asks a token function once more. */
  async function send(
    url: string,
    init: RequestInit & { headers: Headers },
    spec: Pick<OperationSpec, "method" | "headers" | "retry">,
    call: CallOptions = {},
  ): Promise<OutcomeBase> {
    const budget = new RetryBudget(
      spec.retry === "never" || isStream(init.body) ? false : (call.retry ?? options.retry),
    );
    let refreshed = typeof options.token !== "function";
    for (;;) {
      budget.start();
      const authorization = await bearer(options.token);
      if (authorization) init.headers.set("authorization", authorization);
      let response: Response;
      try {
        response = await fetchImpl(url, { ...init, signal: call.signal });
      } catch (error) {
        // A lost connection: the request may or may not have reached the server, which is what retry allows.
        const wait = call.signal?.aborted ? undefined : budget.next(undefined);
        if (wait === undefined) throw error;
        await sleep(wait, call.signal);
        continue;
      }
      if (response.status === 401 && !refreshed) {
        refreshed = true;
        await response.body?.cancel();
        continue;
      }
      if (RETRY_STATUSES.has(response.status)) {
        const wait = budget.next(retryAfter(response.headers));
        if (wait !== undefined) {
          await response.body?.cancel();
          await sleep(wait, call.signal);
          continue;
        }
      }
      const outcome = await outcomeOf(response, spec);
      sent.set(outcome, { url, headers: spec.headers });
      return outcome;
    }
  }

  // async: a request the arguments cannot make (a missing path parameter) rejects, as any other failure of the call.
  async function call(spec: OperationSpec, args: Args = {}, call: CallOptions = {}): Promise<OutcomeBase> {
    const headers = new Headers(options.headers);
    setHeaders(headers, args.headers);
    setHeaders(headers, call.headers);
    // One key for every try of this call: a retried create is created once.
    if (spec.idempotencyKey && !headers.has(spec.idempotencyKey)) headers.set(spec.idempotencyKey, newKey());
    const body = bodyOf(spec, args.body, headers);
    return send(urlOf(baseUrl, spec, args), { method: spec.method, headers, body }, spec, call);
  }

  /** A GET of a URL the server gave (a Link, a Location), read with the response headers `declared`. */
  const follow = (
    url: string,
    declared: readonly string[] | undefined,
    call: CallOptions = {},
    extra?: Record<string, string>,
  ) => {
    const headers = new Headers(options.headers);
    setHeaders(headers, call.headers);
    setHeaders(headers, extra);
    return send(url, { method: "GET", headers }, { method: "GET", headers: declared, retry: "safe" }, call);
  };

  const helpers = {
    async *paginate(operationId: keyof T, args?: Args, callOptions?: CallOptions) {
      const spec = table[operationId];
      let page: OutcomeBase | undefined = await call(spec, args, callOptions);
      while (page) {
        if (page.status < 200 || page.status > 299)
          throw new RestError(page, `${String(operationId)} answered ${page.status}`);
        const items = spec.items ? (page.body as Record<string, unknown>)[spec.items] : page.body;
        if (!Array.isArray(items))
          throw new TypeError(`${String(operationId)}: the page has no list of items at "${spec.items}"`);
        yield* items;
        const next = nextUrl(page);
        page = next === undefined ? undefined : await follow(next, spec.headers, callOptions);
      }
    },
    async nextPage(page: OutcomeBase, callOptions?: CallOptions) {
      const next = nextUrl(page);
      // Read like the page before it, so the spec's headers stay typed page after page.
      return next === undefined ? undefined : follow(next, sent.get(page)?.headers, callOptions);
    },
    events(operationId: keyof T, args: Args = {}, eventOptions: EventsOptions = {}) {
      const spec = table[operationId];
      const url = urlOf(baseUrl, spec, args);
      const connect: Connect = async (lastEventId, signal) => {
        const headers = new Headers(options.headers);
        setHeaders(headers, args.headers);
        setHeaders(headers, eventOptions.headers);
        headers.set("accept", "text/event-stream");
        if (lastEventId !== undefined) headers.set("last-event-id", lastEventId);
        const authorization = await bearer(options.token);
        if (authorization) headers.set("authorization", authorization);
        return fetchImpl(url, { method: "GET", headers, signal });
      };
      return readEvents(connect, spec, eventOptions);
    },
    async waitFor(accepted: OutcomeBase, { signal, interval = 250, maxInterval = 2_000 }: WaitOptions = {}) {
      const location = accepted.response.headers.get("location");
      if (accepted.status !== 202 || !location)
        throw new RestError(accepted, `waitFor needs a 202 with a Location; this is ${accepted.status}`);
      let etag: string | undefined;
      for (let delay = interval; ; delay = Math.min(maxInterval, delay * 1.5)) {
        const polled = await follow(
          absolute(location, accepted),
          ["ETag"],
          { signal },
          etag ? { "if-none-match": etag } : undefined,
        );
        if (polled.status === 200) {
          if (!pending(polled.body)) return polled.body;
          etag = polled.response.headers.get("etag") ?? undefined;
        } else if (polled.status !== 304)
          throw new RestError(polled, `the job at ${location} answered ${polled.status}`);
        await sleep(retryAfter(polled.response.headers) ?? delay, signal);
      }
    },
  };

  const client: Record<string | symbol, unknown> = { ...helpers };
  client[FOLLOW] = (operationId: keyof T, url: string, callOptions?: CallOptions) =>
    follow(url, table[operationId].headers, callOptions);
  for (const [operationId, spec] of Object.entries<OperationSpec>(table)) {
    client[operationId] = (args?: Args, callOptions?: CallOptions) => call(spec, args, callOptions);
  }
  return client as RestClient<O, T>;
}

/** A URL the server gave in an answer (a Link, a Location), made absolute against where that answer came from. */
const absolute = (href: string, from: OutcomeBase) => new URL(href, from.response.url || sent.get(from)?.url).href;

/** The page after this one: its `Link: <…>; rel="next"`, made absolute; undefined on the last page. */
export function nextUrl(page: OutcomeBase): string | undefined {
  const link = page.response.headers.get("link");
  const next = link ? LinkHeader.parse(link).rel("next")[0]?.uri : undefined;
  return next === undefined ? undefined : absolute(next, page);
}

const pending = (body: unknown) =>
  typeof body === "object" && body !== null && PENDING.test(String((body as { status?: unknown }).status));

const isStream = (body: unknown) => typeof ReadableStream !== "undefined" && body instanceof ReadableStream;
