// The server's responses keep the headers set on them in a short list until the head is written, and then hand them to
// Node's writeHead in one flat array. Node's own setHeader stores each field in a dictionary-mode object that writeHead
// then walks again, which costs more than the same fields checked the same way and written by one writeHead. Everything that sets or reads headers (Koa, its
// middleware, ours) goes through the public API below, which answers as Node's does: same validation, same errors,
// same case-insensitive names, values kept until the end (read after the head is sent, too).
import {
  ServerResponse,
  validateHeaderName,
  validateHeaderValue,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
} from "node:http";

type Value = number | string | string[];

// Node's own checks (checkIsHttpToken, checkInvalidHeaderChar), run here first: its exported validators wrap them in
// a frame that copies their arguments on every call. What fails is handed to them, so errors are Node's own.
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

/** The lower-case forms of the valid names this server sets or reads (a few dozen): each is checked and lowered once. */
const checkedNames = new Map<string, string>();

/** A name's lower-case form (kept when the name is valid: a name read before it is set, such as Vary, too). */
function keyOf(name: string): string {
  let key = checkedNames.get(name);
  if (key === undefined) {
    key = name.toLowerCase();
    if (checkedNames.size < 512 && TOKEN.test(name)) checkedNames.set(name, key);
  }
  return key;
}

/** The field's lower-case name, once its name and value pass Node's checks. */
function checkedKey(name: string, value: Value | undefined): string {
  let key = checkedNames.get(name);
  if (key === undefined) {
    if (typeof name !== "string" || !TOKEN.test(name)) validateHeaderName(name);
    key = keyOf(name);
  }
  // A number's digits always pass (Node's check reads its String() too).
  if (
    typeof value === "string"
      ? INVALID_VALUE_CHAR.test(value)
      : typeof value !== "number" && (value === undefined || INVALID_VALUE_CHAR.test(String(value)))
  ) {
    validateHeaderValue(name, value as string);
  }
  return key;
}

/** Servers whose answers not yet begun must say Connection: close (shutdown.ts drains them). */
const closing = new WeakSet<object>();
let anyClosing = false;

/** From now on, every answer of `server` whose head is not written yet closes its connection after it. */
export function closeConnectionsAfterAnswers(server: Server): void {
  closing.add(server);
  anyClosing = true;
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

export class HeadersAtOnce<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** the fields' lower-case names, in the order first set */
  #keys: string[] = [];
  /** [name as set, value] of each field, flattened, in the same order: what writeHead takes */
  #fields: unknown[] = [];

  override setHeader(name: string, value: Value): this {
    // Once the head is sent, Node's own throws ERR_HTTP_HEADERS_SENT.
    if (this.headersSent) return super.setHeader(name, value);
    const key = checkedKey(name, value);
    const index = this.#keys.indexOf(key);
    if (index < 0) this.#add(key, name, value);
    else {
      this.#fields[2 * index] = name;
      this.#fields[2 * index + 1] = value;
    }
    return this;
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    if (this.headersSent) return super.appendHeader(name, value);
    const key = checkedKey(name, value as Value);
    const index = this.#keys.indexOf(key);
    if (index < 0) {
      this.#add(key, name, typeof value === "string" ? value : [...value]);
      return this;
    }
    const current = this.#fields[2 * index + 1] as Value;
    this.#fields[2 * index + 1] = [
      ...(Array.isArray(current) ? current : [current]),
      ...(Array.isArray(value) ? value : [value]),
    ];
    return this;
  }

  /** A field not set before, checked already. */
  #add(key: string, name: string, value: Value): void {
    this.#keys.push(key);
    this.#fields.push(name, value);
  }

  override getHeader(name: string): Value | undefined {
    if (typeof name !== "string") return super.getHeader(name); // Node's ERR_INVALID_ARG_TYPE
    const index = this.#keys.indexOf(keyOf(name));
    return index < 0 ? undefined : (this.#fields[2 * index + 1] as Value);
  }

  override hasHeader(name: string): boolean {
    if (typeof name !== "string") return super.hasHeader(name);
    return this.#keys.includes(keyOf(name));
  }

  override getHeaderNames(): string[] {
    return [...this.#keys];
  }

  /** Node's too (OutgoingMessage#getRawHeaderNames), which its types leave out. */
  getRawHeaderNames(): string[] {
    return this.#keys.map((_, i) => this.#fields[2 * i] as string);
  }

  override getHeaders(): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = Object.create(null);
    for (let i = 0; i < this.#keys.length; i++) headers[this.#keys[i]] = this.#fields[2 * i + 1] as OutgoingHttpHeader;
    return headers;
  }

  override removeHeader(name: string): void {
    // Node's checks, and what removing Connection, Content-Length, Transfer-Encoding or Date means to it.
    super.removeHeader(name);
    const index = this.#keys.indexOf(keyOf(name));
    if (index < 0) return;
    this.#keys.splice(index, 1);
    this.#fields.splice(2 * index, 2);
  }

  override writeHead(statusCode: number, reason?: string | Headers, headers?: Headers): this {
    if (typeof reason !== "string" && reason !== undefined) {
      headers = reason;
      reason = undefined;
    }
    // Checked here, when the head is written, rather than tracked on every response while it is in flight.
    if (anyClosing && !this.headersSent && closing.has(serverOf(this))) this.setHeader("Connection", "close");
    const code = statusCode | 0;
    // Nothing gathered, or what Node refuses (a head already sent, a status out of range, an odd array): Node's own.
    if (
      this.#keys.length === 0 ||
      this.headersSent ||
      code < 100 ||
      code > 999 ||
      (Array.isArray(headers) && headers.length % 2 !== 0)
    ) {
      return reason === undefined ? super.writeHead(statusCode, headers) : super.writeHead(statusCode, reason, headers);
    }
    // Fields given here replace those set before, as in Node (an array's in order: the last of a name wins).
    if (Array.isArray(headers)) {
      for (let n = 0; n < headers.length; n += 2) if (headers[n]) this.setHeader(headers[n] as string, headers[n + 1]);
    } else if (headers) {
      for (const key of Object.keys(headers)) if (key) this.setHeader(key, headers[key] as Value);
    }
    const fields = this.#fields as OutgoingHttpHeader[];
    return reason === undefined ? super.writeHead(statusCode, fields) : super.writeHead(statusCode, reason, fields);
  }
}

// Node's legacy alias of writeHead is its own function: it must write the gathered fields too.
Object.defineProperty(
  HeadersAtOnce.prototype,
  "writeHeader",
  Object.getOwnPropertyDescriptor(HeadersAtOnce.prototype, "writeHead")!,
);

/** The server a response belongs to: its request's socket's (set before the response has a socket of its own). */
const serverOf = (res: ServerResponse): object => (res.req?.socket as { server?: object } | undefined)?.server ?? res;
