// An HTTP proxy in front of a test server that can forward a request, lose the answer after forwarding it (503),
// refuse it (503) or cut the connection: what a client's retries meet between it and the server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
}

/** An HTTP proxy in front of the server whose `answer` may forward, drop the answer, or cut the connection. */
export async function proxy(
  upstream: string,
  answer: (seen: Seen, index: number) => "forward" | "503 after forwarding" | "503" | "cut",
) {
  const seen: Seen[] = [];
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const one = { method: req.method!, url: req.url!, headers: req.headers };
    seen.push(one);
    const what = answer(one, seen.length - 1);
    if (what === "cut") return req.socket.destroy();
    if (what === "503")
      return res.writeHead(503, { "content-type": "application/problem+json" }).end('{"title":"down"}');
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
    ) as Record<string, string>;
    const upstreamAnswer = await fetch(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await upstreamAnswer.arrayBuffer());
    // The create happened; its answer is lost on the way back.
    if (what === "503 after forwarding")
      return res.writeHead(503, { "content-type": "application/problem+json" }).end('{"title":"lost"}');
    const out = Object.fromEntries(
      [...upstreamAnswer.headers].filter(
        ([k]) => !["content-length", "content-encoding", "transfer-encoding", "connection"].includes(k),
      ),
    );
    res.writeHead(upstreamAnswer.status, out).end(body);
  };
  // The upstream unreachable (a test stopped it): the client sees its connection cut.
  const server: Server = createServer((req, res) => void forward(req, res).catch(() => req.socket.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
