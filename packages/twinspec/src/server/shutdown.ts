// Draining an HTTP server for a deploy: stop accepting connections (new ones are refused), answer every request
// that arrives on a connection already open with its real response marked `Connection: close` (those already taken
// are marked by the application's edge once it is closing, http/policy.ts), so each client learns from that answer itself not to send again; connections idle from the
// start are closed once the busy ones had time to speak. Resolves when no connection is left, or at the deadline
// after cutting off what remains.
import net from "node:net";
import type { IncomingMessage, Server, ServerResponse } from "node:http";

const closeAfter = (_req: IncomingMessage, res: ServerResponse) => void res.setHeader("Connection", "close");

/** A server that can be drained (`drainable`). */
export interface Drain {
  /**
   * Stops accepting connections and lets the requests in flight finish; resolves true when every connection ended
   * by itself, false when some were cut off at `graceMs`.
   *
   * @param graceMs - how long in-flight requests may take, in ms
   */
  drain(graceMs: number): Promise<boolean>;
}

/**
 * What a deploy's SIGTERM drains: new connections refused, requests in flight (and any arriving on a connection
 * already open) answered with `Connection: close`, idle connections closed, the rest cut off at the deadline.
 *
 * @param server - a server made by `createHttpServer`; the answers of requests already taken are marked by the
 *   application's edge once `App.close` began (serve calls both)
 */
export function drainable(server: Server): Drain {
  return {
    async drain(graceMs) {
      // Requests still arriving on open connections are answered with Connection: close.
      server.prependListener("request", closeAfter);
      // net.Server's close (http.Server's would also close idle keep-alive connections at once, racing with a
      // client that is just sending its next request on one): the listening socket closes, open connections stay.
      const closed = new Promise<boolean>((resolve) => net.Server.prototype.close.call(server, () => resolve(true)));
      // A client between two requests sends its next one within moments; one still silent after this is idle.
      const sweep = setTimeout(() => server.closeIdleConnections(), Math.min(1_000, graceMs / 4));
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
      const ended = await Promise.race([closed, deadline]);
      clearTimeout(sweep);
      clearTimeout(timer);
      if (!ended) server.closeAllConnections();
      return ended;
    },
  };
}
