// The abuse walk's graphql-ws client (abuse-walk.ts): sockets on /graphql (subprotocol graphql-transport-ws) that
// say how they ended, and one operation sent over a socket, read up to its first answer or the socket's close.
import WebSocket, { type RawData } from "ws";

/** A text frame's message, parsed. */
const parse = (data: RawData) =>
  JSON.parse(
    (Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? Buffer.from(data) : data).toString(
      "utf8",
    ),
  );

export interface Ending {
  /** the close code, if the server closed the socket */
  code?: number;
  reason?: string;
  /** it was acknowledged (connection_ack) */
  acked: boolean;
}

/** A graphql-ws socket to `base`'s /graphql, initialised with `token`; `ended` settles when it closes. */
export function openSocket(base: string, token: string) {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
  const state: Ending = { acked: false };
  const acked = new Promise<boolean>((resolve) => {
    ws.on("message", (data) => {
      if (parse(data).type === "connection_ack") resolve((state.acked = true));
    });
    ws.on("close", () => resolve(false));
  });
  const ended = new Promise<Ending>((resolve) => {
    ws.on("close", (code, reason) => resolve(Object.assign(state, { code, reason: reason.toString() })));
    ws.on("error", () => {}); // the close that follows says how it ended
  });
  ws.on("open", () =>
    ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${token}` } })),
  );
  return { ws, acked, ended };
}

/** What the server answered one operation over graphql-ws: a message (next / error), or the socket's close. */
export type WsAnswer =
  | { type: "next" | "error" | "complete"; payload?: unknown }
  | { type: "close"; code: number; reason: string };

/** Sends `payload` (JSON text of { query, variables }) as a subscribe message; its first answer, or the close. */
export async function sendOverSocket(base: string, token: string, payload: string): Promise<WsAnswer> {
  const socket = openSocket(base, token);
  try {
    const answer = new Promise<WsAnswer>((resolve) => {
      socket.ws.on("message", (data) => {
        const message = parse(data);
        if (message.type !== "connection_ack" && message.type !== "ping" && message.type !== "pong") resolve(message);
      });
      void socket.ended.then((e) => resolve({ type: "close", code: e.code ?? 1006, reason: e.reason ?? "" }));
    });
    if (await socket.acked) socket.ws.send(`{"id":"abuse","type":"subscribe","payload":${payload}}`);
    return await answer;
  } finally {
    socket.ws.terminate();
  }
}
