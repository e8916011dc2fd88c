import { tracingWanted } from './tracing.js';

/**
 * The process entry (`npm start`, and every worker of a cluster, which node:cluster starts from this
 * same file). Tracing must hook the modules it instruments (http, express, pg) before they are first
 * imported, and a static import graph is loaded whole before any of it runs: so the server
 * (src/start.ts) is imported dynamically, after the OpenTelemetry SDK when tracing is wanted. When it
 * is not, no OpenTelemetry module is loaded by this file at all.
 */
if (tracingWanted(process.env)) {
  const { startTracing } = await import('./telemetry/start-tracing.js');
  await startTracing();
}
await import('./start.js');
