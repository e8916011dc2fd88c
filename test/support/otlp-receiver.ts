import http from 'node:http';
import type net from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with its instrumentation scope's name. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  links: { traceId: string; spanId: string }[];
  attributes: Record<string, unknown>;
  service: unknown;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; links?: { traceId: string; spanId: string }[]; attributes?: { key: string; value: AnyValue }[] }[];
    }[];
  }[];
}

const valueOf = (value: AnyValue) => value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
const attributesOf = (list: { key: string; value: AnyValue }[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 for the tracing tests: it takes what the SDK's exporter
 * posts to `/v1/traces` with `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` (the OTLP JSON encoding: ids as
 * hex) and keeps every span. Anything else is answered 415, so a protocol the test did not ask for
 * shows as no spans rather than as spans misread.
 */
export async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      for (const resource of body.resourceSpans ?? []) {
        const service = attributesOf(resource.resource?.attributes)['service.name'];
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              scope: scope.scope?.name ?? '',
              links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
              attributes: attributesOf(span.attributes),
              service,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
