// Each answered request's access record: its log line (pino) and its series in http_requests_total and
// http_request_duration_seconds (prom-client). Records are handed to both once per turn of the event loop, after
// the answers of that turn are written, rather than one by one inside each request: the same calls, made together.
// The check phase that runs them comes before the event loop reads the next requests, so a client that has its
// answer finds its request counted and logged.
import type { Context } from "koa";
import type { Logger } from "pino";
import type { Metrics } from "./metrics.js";
import { logRequestLine } from "../server/seam.js";

/** One request's access record. */
interface Access {
  requestId: string;
  method: string;
  url: string;
  status: number;
  /** the route template metrics label it with */
  route: string;
  /** how long it took, in ms */
  ms: number;
}

/** Records an answered request: `route` its route template, `ms` how long it took. */
export type AccessRecorder = (ctx: Context, route: string, ms: number) => void;

export function accessRecorder(logger: Logger, metrics: Metrics): AccessRecorder {
  let pending: Access[] = [];
  const write = () => {
    const records = pending;
    pending = [];
    for (const { requestId, method, url, status, route, ms } of records) {
      metrics.record(method, route, status, ms / 1000);
      logRequestLine(logger, { requestId, method, url, status, ms: Math.round(ms) });
    }
  };
  return (ctx, route, ms) => {
    const { req, res } = ctx;
    const length = pending.push({
      requestId: ctx.state.requestId as string,
      method: req.method!,
      url: req.url!,
      status: res.statusCode,
      route,
      ms,
    });
    if (length === 1) setImmediate(write);
  };
}
