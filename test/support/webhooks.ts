// A webhook receiver on 127.0.0.1 for tests, and delivery options fast enough for them (loopback and http: allowed).
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface Received {
  /** the request's path and query */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1 that records every request and answers what `answer` says for the n-th one (from 1). */
export async function receiver(
  answer: (n: number) => { status: number; headers?: Record<string, string> } = () => ({ status: 204 }),
) {
  const got: Received[] = [];
  let n = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const { status, headers } = answer(++n);
      res.writeHead(status, headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    got,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const FAST = {
  scheduleMs: [20, 20, 20, 20, 20, 20, 20, 20],
  pollMs: 20,
  leaseMs: 2000,
  timeoutMs: 2000,
  policy: { allowHttp: true, allowPrivate: true },
};
