// An upgrade request (WebSocket) runs the same request listener as every other request, so it gets the same edge:
// request id, access log line, metrics, CORS, the application's middleware. Node hands an upgrade to the server's
// 'upgrade' listeners with the raw socket and no response; this gives it a ServerResponse on that socket, so a
// refusal (404, 429, a bad handshake) is an ordinary answer, and the connection closes after it. What accepts the
// upgrade (graphql/ws.ts) takes the socket from `upgradeOf` and tells Koa not to respond.
import { ServerResponse, type IncomingMessage, type Server } from "node:http";
import { Socket } from "node:net";
import type { Duplex } from "node:stream";

/** The raw connection of an upgrade request, and the first bytes already read from it. */
export interface Upgrade {
  socket: Socket;
  head: Buffer;
}

const upgrades = new WeakMap<IncomingMessage, Upgrade>();

/** The connection of an upgrade request (undefined for an ordinary request). */
export const upgradeOf = (req: IncomingMessage): Upgrade | undefined => upgrades.get(req);

/**
 * Serves `server`'s upgrade requests through `listener` (the app's request listener).
 *
 * @param server - the HTTP server
 * @param listener - the request listener every request runs (`App.callback`)
 * @returns stops serving upgrades
 */
export function upgradesThrough(
  server: Server,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
): () => void {
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A TCP or TLS socket whose request Node has finished parsing: no other response is written on it.
    if (!(socket instanceof Socket) || socket.writableEnded) return void socket.destroy();
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    res.shouldKeepAlive = false;
    // An answer instead of an upgrade ends the connection: nothing else can be said on it.
    res.once("finish", () => socket.end());
    upgrades.set(req, { socket, head });
    listener(req, res);
  };
  server.on("upgrade", onUpgrade);
  return () => server.off("upgrade", onUpgrade);
}
