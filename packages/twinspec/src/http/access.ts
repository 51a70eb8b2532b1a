// Each answered request's access record: its log line (pino) and its series in http_requests_total and
// http_request_duration_seconds (prom-client). Records are handed to both once per turn of the event loop, after
// the answers of that turn are written, rather than one by one inside each request: the same calls, made together.
// The check phase that runs them comes before the event loop reads the next requests, so a client that has its
// answer finds its request counted and logged.
import type { Context } from "koa";
import type { Logger } from "pino";
import type { Metrics } from "./metrics.js";
import { logRequestLines, type RequestLine } from "../server/seam.js";

/** One request's access record: its log line's fields, and its series' labels and duration. */
interface Access extends RequestLine {
  /** the route template metrics label it with */
  route: string;
  /** how long it took */
  seconds: number;
}

/** Records an answered request: `route` its route template, `ms` how long it took. */
export type AccessRecorder = (ctx: Context, route: string, ms: number) => void;

export function accessRecorder(logger: Logger, metrics: Metrics): AccessRecorder {
  let pending: Access[] = [];
  const write = () => {
    const records = pending;
    pending = [];
    for (const { method, route, status, seconds } of records) metrics.record(method, route, status, seconds);
    logRequestLines(logger, records);
  };
  return (ctx, route, ms) => {
    const { req, res } = ctx;
    const length = pending.push({
      requestId: ctx.state.requestId as string,
      method: req.method!,
      url: req.url!,
      status: res.statusCode,
      ms: Math.round(ms),
      route,
      seconds: ms / 1000,
    });
    if (length === 1) setImmediate(write);
  };
}
