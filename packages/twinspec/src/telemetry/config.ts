// Whether to trace, from the standard OTEL_* variables; read with the rest of the configuration at start. This file
// loads no OpenTelemetry code: with no endpoint set, none is loaded at all (see tracing.ts, imported on demand).

type OtlpProtocol = "http/protobuf" | "http/json";

export interface TracingConfig {
  /** how spans are encoded over OTLP/HTTP (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL) */
  protocol: OtlpProtocol;
}

/**
 * Tracing is on when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT is set, unless
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. The exporter, the batch processor, the sampler and the
 * resource read their own OTEL_* variables (endpoint, headers, timeout, compression, OTEL_BSP_*, OTEL_TRACES_SAMPLER,
 * OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES).
 */
export function tracingFromEnv(env: NodeJS.ProcessEnv): TracingConfig | undefined {
  if (!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() || "otlp";
  if (exporter === "none") return undefined;
  if (exporter !== "otlp")
    throw new Error(`OTEL_TRACES_EXPORTER must be "otlp" or "none", got "${env.OTEL_TRACES_EXPORTER}"`);
  const protocol = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    "http/protobuf"
  ).trim();
  if (protocol !== "http/protobuf" && protocol !== "http/json") {
    throw new Error(
      `OTEL_EXPORTER_OTLP_PROTOCOL must be "http/protobuf" or "http/json" (OTLP over HTTP, usually port 4318), got "${protocol}"`,
    );
  }
  return { protocol };
}
