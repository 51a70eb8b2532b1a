// What the rest of the app sees of tracing. Type-only, so importing it loads no OpenTelemetry code.
import type { Middleware } from "koa";
import type { LogEvent } from "kysely";

export type OperationKind = "query" | "mutation" | "subscription";

export interface Tracing {
  /** Koa middleware: one server span per request, continuing the caller's `traceparent`. Mount it outermost. */
  http(routeOf: (path: string) => string): Middleware;
  /** Runs one GraphQL operation inside its span (a child of the request's span, if any). */
  operation<T>(kind: OperationKind, name: string | undefined, run: () => T): T;
  /** The store's query hook: a child span per database query made inside a traced request or operation. */
  query(dialect: "sqlite" | "postgres"): (event: LogEvent) => void;
  /** Exports every span ended so far. */
  forceFlush(): Promise<void>;
  /** Exports what is left and stops. */
  shutdown(): Promise<void>;
}
