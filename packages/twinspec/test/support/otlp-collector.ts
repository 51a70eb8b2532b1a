// A small OTLP/HTTP trace collector on 127.0.0.1 for tests: accepts POST /v1/traces as JSON (decoded into spans)
// or protobuf (kept as bytes), gzip or not, and answers 200 as a collector does.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };

export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  status?: { code?: number; message?: string };
  attributes: Record<string, string | number | boolean | undefined>;
  resource: Record<string, string | number | boolean | undefined>;
}

export interface Collector {
  url: string;
  spans: CollectedSpan[];
  /** protobuf requests, raw, with their content type */
  protobuf: { contentType: string; body: Buffer }[];
  /** the headers of every export request */
  requests: IncomingHttpHeaders[];
  /** waits until a span satisfies `match` (exporters send in batches, a moment after the span ends) */
  waitFor(match: (span: CollectedSpan) => boolean, what: string, ms?: number): Promise<CollectedSpan>;
  close(): Promise<void>;
}

const attributeMap = (attributes: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue !== undefined ? Number(value.intValue) : (value.boolValue ?? value.doubleValue)),
    ]),
  );

export async function startCollector(): Promise<Collector> {
  const spans: CollectedSpan[] = [];
  const protobuf: Collector["protobuf"] = [];
  const requests: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      requests.push(req.headers);
      let body = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      const type = req.headers["content-type"] ?? "";
      if (type.startsWith("application/json")) {
        const request = JSON.parse(body.toString("utf8"));
        for (const rs of request.resourceSpans ?? []) {
          const resource = attributeMap(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? []) spans.push({ ...s, attributes: attributeMap(s.attributes), resource });
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        protobuf.push({ contentType: type, body });
        res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    protobuf,
    requests,
    async waitFor(match, what, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = spans.find(match);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no span ${what} arrived; got: ${spans.map((s) => s.name).join(", ") || "none"}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
