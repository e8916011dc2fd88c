import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Link, type Span, type SpanContext } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { installTracing, type SpanAttributes, type Tracing } from '../tracing.js';

/** Paths polled by probes and scrapers: a trace each would drown the requests (docs/operations.md "Traces"). */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

const pathOf = (url: string | undefined) => {
  const query = url?.indexOf('?') ?? -1;
  return query === -1 ? url : url!.slice(0, query);
};

/**
 * The OpenTelemetry SDK for Node (`@opentelemetry/sdk-node`), configured by the standard variables:
 * OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT), OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf` by
 * default, `http/json`, `grpc`), OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME (here `mallfront` by
 * default), OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, OTEL_BSP_*.
 * Traces only: metrics are Prometheus's (`GET /metrics`) and logs are the JSON lines on stdout, so the
 * SDK's own metrics and logs exporters stay off unless their variables ask for them.
 *
 * Spans: HTTP in and out (`instrumentation-http`), Express routers and route handlers (middleware
 * layers left out: a dozen spans per request that say nothing), `pg` statements and pool waits
 * within a trace (`instrumentation-pg`, no values), and ours through `Tracing`: the GraphQL operation
 * and its root fields, the outbox relay's rounds and the webhook deliveries.
 */
export function startOpenTelemetry(): void {
  process.env.OTEL_SERVICE_NAME ??= 'mallfront';
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  const sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has(pathOf(req.url) ?? ''),
        // Outgoing calls (webhooks, payment providers) get a span only inside a trace.
        requireParentforOutgoingSpans: true,
      }),
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements outside any trace (the sign-in throttle's exchange, health probes) make no trace of their own.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  installTracing(openTelemetryTracing(sdk));
}

const tracer = () => trace.getTracer('mallfront');

/** A W3C `traceparent` as a span context to link to (null when it is not one). */
function spanContextOf(traceparent: string | null): SpanContext | null {
  if (!traceparent) return null;
  const span = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent }));
  return span && trace.isSpanContextValid(span) ? span : null;
}

function linksOf(traceparents: readonly (string | null)[]): Link[] {
  const seen = new Set<string>();
  const links: Link[] = [];
  for (const traceparent of traceparents) {
    if (!traceparent || seen.has(traceparent)) continue;
    seen.add(traceparent);
    const linked = spanContextOf(traceparent);
    if (linked) links.push({ context: linked });
  }
  return links;
}

/** Ends `span` when `work` settles, its error recorded. */
async function ending<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
  }
}

function openTelemetryTracing(sdk: NodeSDK): Tracing {
  return {
    activeIds() {
      const span = trace.getActiveSpan()?.spanContext();
      return span && trace.isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : undefined;
    },
    traceparent() {
      const span = trace.getActiveSpan()?.spanContext();
      if (!span || !trace.isSpanContextValid(span)) return null;
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent ?? null;
    },
    inSpan(name, attributes, work) {
      return tracer().startActiveSpan(name, { attributes }, (span) => ending(span, work));
    },
    inLinkedRoot(name, attributes: SpanAttributes, traceparents, work, startedAt) {
      // A trace of its own (the root context: no parent), linked to the requests whose work it carries on.
      const options = { kind: SpanKind.CONSUMER, attributes, links: linksOf(traceparents), root: true, startTime: startedAt };
      return tracer().startActiveSpan(name, options, ROOT_CONTEXT, (span) =>
        ending(span, () => work((more) => span.addLinks(linksOf(more)))),
      );
    },
    shutdown: () => sdk.shutdown(),
  };
}
