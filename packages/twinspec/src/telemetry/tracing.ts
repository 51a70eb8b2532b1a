// OpenTelemetry tracing, loaded only when an OTLP endpoint is configured (main.ts imports this file on demand):
// explicit spans in our own seams — the Koa middleware, GraphQL execution, the store's query hook — rather than
// monkey-patching instrumentations, so a request pays for the spans it makes and nothing else. Parent and child
// spans find each other through AsyncLocalStorage (the OTel context manager); W3C traceparent is continued.
import {
  context,
  diag,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type TextMapGetter,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from "@opentelemetry/semantic-conventions";
import type { LogEvent } from "kysely";
import type { Logger } from "pino";
import type { TracingConfig } from "./config.js";
import type { OperationKind, Tracing } from "./types.js";

// Incubating semantic conventions: copied rather than imported from the package's unstable entry point, as its
// README advises.
const ATTR_DB_SYSTEM = "db.system";
const ATTR_GRAPHQL_OPERATION_TYPE = "graphql.operation.type";
const ATTR_GRAPHQL_OPERATION_NAME = "graphql.operation.name";

export interface TracingOptions extends TracingConfig {
  /** export here instead of where OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT says (tests) */
  url?: string;
  /** replaces the OTLP exporter (tests) */
  exporter?: SpanExporter;
  /** problems of the exporter (collector unreachable, …) are logged here as warnings */
  logger?: Logger;
}

const headerGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

let contextManagerSet = false;

export function startTracing(options: TracingOptions): Tracing {
  // One context manager per process (a global of the OTel API); every app in it shares it.
  if (!contextManagerSet)
    contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (options.logger) reportProblemsTo(options.logger);
  const exporter =
    options.exporter ??
    (options.protocol === "http/json"
      ? new JsonExporter({ url: options.url })
      : new ProtobufExporter({ url: options.url }));
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the default name.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: "twinspec" }))
    .merge(detectResources({ detectors: [envDetector] }));
  // The sampler (OTEL_TRACES_SAMPLER, default parent-based always-on) and the batch (OTEL_BSP_*) come from the env.
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  const tracer = provider.getTracer("twinspec");
  const propagator = new W3CTraceContextPropagator();

  /**
   * Runs `run` as `span`'s child context and ends the span when it settles. `run` is a GraphQL execution, whose
   * result graphql-js gives as a value or a promise: it is handed back as it came, so tracing changes no caller.
   */
  function within<T>(span: Span, run: () => T, settle: (value: Awaited<T>) => void): T {
    const ended = (value: Awaited<T>) => {
      settle(value);
      span.end();
      return value;
    };
    const failed = (error: unknown) => {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      span.end();
      throw error;
    };
    try {
      const result = context.with(trace.setSpan(context.active(), span), run);
      return result instanceof Promise ? (result.then(ended, failed) as T) : ended(result as Awaited<T>);
    } catch (error) {
      return failed(error);
    }
  }

  return {
    http: (routeOf) => async (ctx, next) => {
      const parent = propagator.extract(ROOT_CONTEXT, ctx.headers, headerGetter);
      const route = routeOf(ctx.path);
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: ctx.method,
        [ATTR_URL_PATH]: ctx.path,
        [ATTR_URL_SCHEME]: ctx.protocol,
        [ATTR_NETWORK_PROTOCOL_VERSION]: ctx.req.httpVersion,
        [ATTR_CLIENT_ADDRESS]: ctx.ip || undefined,
        [ATTR_USER_AGENT_ORIGINAL]: ctx.headers["user-agent"],
      };
      // Paths the API does not have get no route (the span is named by the method alone), as the conventions say.
      if (route !== "unmatched") attributes[ATTR_HTTP_ROUTE] = route;
      const span = tracer.startSpan(
        route !== "unmatched" ? `${ctx.method} ${route}` : ctx.method,
        { kind: SpanKind.SERVER, attributes },
        parent,
      );
      await context.with(trace.setSpan(parent, span), async () => {
        try {
          await next();
        } finally {
          // Errors were answered as problems by the request policy (http/policy.ts) further in: the status is final here. 4xx are the client's.
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, ctx.status);
          if (ctx.status >= 500) {
            span.setAttribute(ATTR_ERROR_TYPE, String(ctx.status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
          span.end();
        }
      });
    },

    operation: (kind: OperationKind, name, run) => {
      const span = tracer.startSpan(name ? `${kind} ${name}` : kind, {
        attributes: { [ATTR_GRAPHQL_OPERATION_TYPE]: kind, [ATTR_GRAPHQL_OPERATION_NAME]: name }, // undefined ones are left out
      });
      return within(span, run, (result) => {
        // Declared outcomes (NOT_FOUND, FORBIDDEN, …) are the client's; only server faults mark the span failed.
        const errors = (result as { errors?: readonly { extensions?: { code?: string } }[] } | undefined)?.errors;
        const fault = errors?.find((e) => !e.extensions?.code || e.extensions.code === "INTERNAL_SERVER_ERROR");
        if (fault) {
          span.setAttribute(ATTR_ERROR_TYPE, String(fault.extensions?.code ?? "INTERNAL_SERVER_ERROR"));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      });
    },

    query: (dialect) => {
      const system = dialect === "postgres" ? "postgresql" : "sqlite";
      // SQL texts repeat (Kysely builds the same statement for the same call): describe each once.
      const statements = new Map<string, ReturnType<typeof describeSql>>();
      return (event: LogEvent) => {
        // Only inside a traced request or operation: the job queue's polling would otherwise start a trace twice a second.
        const parent = trace.getSpan(context.active());
        if (!parent) return;
        const sql = event.query.sql;
        let described = statements.get(sql);
        if (!described) {
          described = describeSql(sql);
          if (statements.size < 1000) statements.set(sql, described);
        }
        const { operation, table } = described;
        // Kysely reports after the query: start it back by its duration (performance.now() values, which the SDK
        // converts with its own clock, as it does for every span).
        const end = performance.now();
        const span = tracer.startSpan(
          table ? `${operation} ${table}` : operation,
          {
            kind: SpanKind.CLIENT,
            startTime: end - event.queryDurationMillis,
            attributes: {
              [ATTR_DB_SYSTEM]: system,
              [ATTR_DB_SYSTEM_NAME]: system,
              [ATTR_DB_OPERATION_NAME]: operation,
              [ATTR_DB_QUERY_TEXT]: sql,
              [ATTR_DB_COLLECTION_NAME]: table,
            },
          },
          context.active(),
        );
        if (event.level === "error") {
          span.recordException(event.error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (event.error as Error)?.message });
        }
        span.end(end);
      };
    },

    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** pino mixin: the active span's ids on every log line written inside it (the names OTel's pino instrumentation uses). */
export function logFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, "0") };
}

/** "SELECT … from \"books\" …" → { operation: "SELECT", table: "books" } (parameters are placeholders: no values). */
export function describeSql(sql: string): { operation: string; table?: string } {
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "QUERY";
  const table = /\b(?:from|into|update)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(sql)?.[1];
  return { operation, table };
}

/** The exporter reports failures (collector down, refused batch) through OTel's diag channel: log them as warnings. */
function reportProblemsTo(logger: Logger) {
  // Outside any span: an export runs in the context of the request whose span filled the batch, not on its behalf.
  const warn = (message: string, ...args: unknown[]) =>
    context.with(ROOT_CONTEXT, () =>
      logger.warn({ otel: args.length ? args.map(String) : undefined }, `opentelemetry: ${message}`),
    );
  diag.setLogger(
    { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}
