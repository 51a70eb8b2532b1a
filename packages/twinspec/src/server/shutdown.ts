// Draining an HTTP server for a deploy: stop accepting connections (new ones are refused), answer every request
// that arrives on a connection already open with its real response marked `Connection: close` (those already taken
// are marked by the application's edge once it is closing, http/policy.ts), so each client learns from that answer
// itself not to send again; a connection is closed as idle only once it has read nothing for a whole sweep, so a
// request already sent (in the kernel's buffer, not yet read by a busy event loop) is answered rather than reset.
// Resolves when no connection is left, or at the deadline after cutting off what remains.
import net, { type Socket } from "node:net";
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
 *   application's edge once `App.close` began (serve calls both); called before it listens, so that it knows
 *   every connection
 */
export function drainable(server: Server): Drain {
  // Each open connection: the requests it carried, those answered, and what it had read at the last sweep.
  const uses = new Map<Socket, { requests: number; answered: number; read: number }>();
  server.on("connection", (socket: Socket) => {
    uses.set(socket, { requests: 0, answered: 0, read: -1 });
    socket.once("close", () => uses.delete(socket));
  });
  // One function for every answer (a response emits close once): nothing allocated per request.
  function answered(this: ServerResponse) {
    const use = uses.get(this.req.socket);
    if (use) use.answered++;
  }
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const use = uses.get(req.socket);
    if (!use) return;
    use.requests++;
    res.on("close", answered);
  });
  /** Closes the connections that waited for their next request through a whole sweep; an upgraded one is left. */
  const sweepIdle = () => {
    for (const [socket, use] of uses) {
      const idle = use.requests === use.answered && (use.requests > 0 || socket.bytesRead === 0);
      if (idle && socket.bytesRead === use.read) socket.destroy();
      else use.read = socket.bytesRead;
    }
  };
  return {
    async drain(graceMs) {
      // Requests still arriving on open connections are answered with Connection: close.
      server.prependListener("request", closeAfter);
      // net.Server's close (http.Server's would also close idle keep-alive connections at once, racing with a
      // client that is just sending its next request on one): the listening socket closes, open connections stay.
      const closed = new Promise<boolean>((resolve) => net.Server.prototype.close.call(server, () => resolve(true)));
      // A client between two requests sends its next one within moments: sweeps begin after that, and each
      // closes what read nothing since the one before (an event loop turn at least, so what was sent got read).
      const period = Math.min(250, graceMs / 16);
      let sweeps: NodeJS.Timeout | undefined;
      const first = setTimeout(
        () => {
          sweepIdle();
          sweeps = setInterval(sweepIdle, period);
        },
        Math.min(1_000, graceMs / 4),
      );
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
      const ended = await Promise.race([closed, deadline]);
      clearTimeout(first);
      clearInterval(sweeps);
      clearTimeout(timer);
      if (!ended) server.closeAllConnections();
      return ended;
    },
  };
}
