// What the webhook walk delivers to: a receiver on 127.0.0.1 (an ephemeral port) that records every request and
// answers 204, and the registration of one of its URLs as an endpoint of a test server. The registration is the only
// place that knows how endpoints are made (the in-process registry, App.webhooks.endpoints, today).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestServer } from "./server.js";

/** One request the receiver got. */
interface Received {
  /** its path ("/hooks/1") */
  path: string;
  headers: IncomingHttpHeaders;
  /** its body, exactly as sent */
  body: string;
}

export interface Receiver {
  /** its base URL ("http://127.0.0.1:PORT") */
  url: string;
  /** every request so far, in the order they came */
  got: Received[];
  /** the first request to `path`, once it came; undefined when none did within `timeoutMs` */
  first(path: string, timeoutMs: number): Promise<Received | undefined>;
  close(): Promise<void>;
}

/** A receiver listening on 127.0.0.1, answering 204 to everything. */
export async function startReceiver(): Promise<Receiver> {
  const got: Received[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
      for (const wake of waiting) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    got,
    first(path, timeoutMs) {
      const find = () => got.find((r) => r.path === path);
      return new Promise((resolve) => {
        if (find()) return resolve(find());
        const done = () => {
          clearTimeout(timer);
          waiting.delete(check);
          resolve(find());
        };
        const check = () => void (find() && done());
        const timer = setTimeout(done, timeoutMs);
        waiting.add(check);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A registered endpoint: its id and its secret (shown once). */
export interface Registered {
  endpointId: string;
  secret: string;
}

/**
 * Registers `url` for `events` on the test server, for every owner's events (as an admin's endpoint).
 *
 * @param server - the test server
 * @param url - the receiver's URL
 * @param events - the event types (webhook names) it gets
 */
export async function registerEndpoint(server: TestServer, url: string, events: string[]): Promise<Registered> {
  const webhooks = server.app.webhooks;
  if (!webhooks) throw new Error("the server has no webhooks: openapi.yaml declares none");
  const { endpoint, secret } = await webhooks.endpoints.create({ url, events, owner: null });
  return { endpointId: endpoint.endpointId, secret };
}

/**
 * What became of the deliveries to an endpoint, in a line (for a failure's message).
 *
 * @param server - the test server
 * @param endpointId - the endpoint
 */
export async function attemptsOf(server: TestServer, endpointId: string): Promise<string> {
  const attempts = (await server.app.webhooks?.endpoints.attempts(endpointId)) ?? [];
  if (!attempts.length) return "no attempt was made";
  return attempts
    .map((a) => `event ${a.eventId} attempt ${a.attempt}: ${a.outcome} (${a.status ?? a.error ?? "no answer"})`)
    .join("; ");
}
