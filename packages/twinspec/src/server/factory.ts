// Node's HTTP server with the limits that keep slow and abusive clients from holding it: the header section must
// arrive within headersTimeoutMs and the whole request within requestTimeoutMs (408), an idle keep-alive socket is
// closed after keepAliveTimeoutMs, the header section may not exceed maxHeaderBytes (431) nor the URL maxUrlLength
// (414). Where Node itself refuses a request (timeouts, oversized or malformed heads) the answer is problem+json,
// as every other refusal of this server.
import { randomUUID } from "node:crypto";
import { createServer, STATUS_CODES, type RequestListener, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { problem, PROBLEM_TYPE } from "../runtime/problem.js";

/** The HTTP server's timeouts and size limits (the environment's HEADERS_TIMEOUT_MS, … through `configFromEnv`). */
export interface ServerLimits {
  /** longest wait for a request's whole header section, in ms (408 after; HEADERS_TIMEOUT_MS) */
  headersTimeoutMs: number;
  /** longest wait for a whole request, body included, in ms (408 after; REQUEST_TIMEOUT_MS); not less than headersTimeoutMs */
  requestTimeoutMs: number;
  /** how long an idle keep-alive connection stays open, in ms (KEEP_ALIVE_TIMEOUT_MS) */
  keepAliveTimeoutMs: number;
  /** largest header section, in bytes (431 beyond; MAX_HEADER_BYTES) */
  maxHeaderBytes: number;
  /** longest URL, in characters (414 beyond; MAX_URL_LENGTH): enforced by the app (AppDeps.maxUrlLength), not the server */
  maxUrlLength: number;
}

/** The limits when the environment sets none: headers 10 s, request 30 s, keep-alive 5 s, 16 KiB of headers, 8 KiB of URL. */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxHeaderBytes: 16 * 1024,
  maxUrlLength: 8 * 1024,
};

/**
 * Node's HTTP server with `limits` applied, whose own refusals (timeouts, oversized or malformed heads) are answered
 * as problem+json; what `serve` and `serveMock` listen with. Not listening yet.
 *
 * @param listener - the request listener (`App.callback`)
 * @param limits - timeouts and size limits (default `DEFAULT_SERVER_LIMITS`)
 * @param logger - where Node's refusals are logged (info, with a request id); default not logged
 */
export function createHttpServer(
  listener: RequestListener,
  limits: ServerLimits = DEFAULT_SERVER_LIMITS,
  logger?: Logger,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // How often Node looks for requests past their timeouts (default 30 s, which would let a 10 s limit run 40 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    listener,
  );
  server.on("clientError", clientError(limits, logger));
  return server;
}

const answered = new WeakSet<Duplex>();

/** Node's own refusals (it has no request object for them) as problem+json on the raw socket, then close. */
function clientError(limits: ServerLimits, logger?: Logger) {
  return (error: Error & { code?: string; reason?: string }, socket: Duplex) => {
    // Once per socket; a peer that is gone needs no answer.
    if (answered.has(socket) || error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    // As Node's default: answer only if no response has begun on this socket (a stalled body can time out while
    // its request is being handled; that request's own answer has not been sent yet).
    if ((socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, detail] = refusal(error, limits);
    const requestId = randomUUID();
    logger?.info({ requestId, status, code: error.code }, "refused a request Node could not take");
    const body = JSON.stringify(problem(status, detail, { requestId }));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
    // Give the answer a moment to leave before the socket goes, even if the peer keeps sending.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
}

function refusal(error: Error & { code?: string; reason?: string }, limits: ServerLimits): [number, string] {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [
        408,
        `The request did not arrive in time: the header section must arrive within ${limits.headersTimeoutMs} ms and the whole request within ${limits.requestTimeoutMs} ms.`,
      ];
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        `The request's header section (request line and headers) is larger than ${limits.maxHeaderBytes} bytes.`,
      ];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "The request's chunk extensions are too large."];
    default:
      return [400, `The request is not valid HTTP/1.1${error.reason ? `: ${error.reason}` : ""}.`];
  }
}

/** 414 for a URL (path and query) longer than max. */
