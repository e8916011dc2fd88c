/**
 * What the code asks of tracing (OpenTelemetry, docs/operations.md "Traces"), without loading it.
 * The SDK is loaded only when an OTLP endpoint is set (`tracingWanted`), by the process entry
 * (src/main.ts) before anything it instruments is imported; it then installs its implementation
 * here (src/telemetry/otel.ts). Everywhere else reads `tracing`: null when off, so the code of the
 * request and query paths does one null check and no more.
 */
export type SpanAttributes = Record<string, string | number | boolean>;

export interface Tracing {
  /** The trace and span ids of the active span (32 and 16 hex digits), or undefined outside any. */
  activeIds(): { traceId: string; spanId: string } | undefined;
  /** The active span's W3C `traceparent`, stored with an outbox event so its relay and deliveries link back; null outside a span. */
  traceparent(): string | null;
  /** Runs `work` in a new span, a child of the active one. */
  inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` as the root span of a trace of its own (background work: a relay round, a webhook
   * delivery), linked to the traces of the `traceparents` given, and to those `work` adds once it
   * knows them (`link`). `startedAt`: when the work began, if before this call.
   */
  inLinkedRoot<T>(
    name: string,
    attributes: SpanAttributes,
    traceparents: readonly (string | null)[],
    work: (link: (traceparents: readonly (string | null)[]) => void) => Promise<T>,
    startedAt?: Date,
  ): Promise<T>;
  /** Sends the spans still buffered and stops (before the process exits). */
  shutdown(): Promise<void>;
}

/** The process's tracing; null when off (a live binding: importers see it once installed). */
export let tracing: Tracing | null = null;

export function installTracing(implementation: Tracing): void {
  tracing = implementation;
}

/**
 * Tracing is on when the standard variables name an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` for traces alone) and neither `OTEL_SDK_DISABLED=true` nor
 * `OTEL_TRACES_EXPORTER=none` turns it off.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return !(env.OTEL_TRACES_EXPORTER ?? '').split(',').some((name) => name.trim() === 'none');
}
