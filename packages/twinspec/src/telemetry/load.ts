// Loading tracing.ts, whose OpenTelemetry SDK packages are optional peer dependencies of twinspec: a deployed
// application that never sets an OTLP endpoint does not install them (≈ 25 MB). When one is set and they are
// missing, the start stops with one line naming the exact `npm install` that fixes it. This file loads no
// OpenTelemetry code (the type import below is erased).
import { missingPeer, peerInstallLine, PeerNotInstalledError } from "../peers.js";

type TracingModule = typeof import("./tracing.js");

/** `npm install` of the OpenTelemetry packages twinspec's tracing needs, at the ranges its package.json accepts. */
export const tracingInstallLine = () => peerInstallLine((name) => name.startsWith("@opentelemetry/"));

/** Tracing is configured but an OpenTelemetry package it needs is not installed; the message says what to run. */
export class TracingNotInstalledError extends PeerNotInstalledError {
  override name = "TracingNotInstalledError";
}

/**
 * tracing.ts, imported now (the server calls this only when tracing is configured). A missing OpenTelemetry package
 * becomes a TracingNotInstalledError whose message is one line with the install command; any other failure is thrown as it came.
 */
export async function loadTracing(
  load: () => Promise<TracingModule> = () => import("./tracing.js"),
): Promise<TracingModule> {
  try {
    return await load();
  } catch (error) {
    const missing = missingPeer(error, /@opentelemetry\/[^'"/]+/);
    if (!missing) throw error;
    throw new TracingNotInstalledError(
      `tracing is on (an OTLP endpoint is set: OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) but ${missing} is not installed; ` +
        `the OpenTelemetry SDK is an optional peer dependency of twinspec: run \`${tracingInstallLine()}\` (or unset the endpoint)`,
      { cause: error },
    );
  }
}
