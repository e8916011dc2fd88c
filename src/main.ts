import v8 from 'node:v8';
import { tracingWanted } from './tracing.js';

/**
 * The process entry (`npm start`, and every worker of a cluster, which node:cluster starts from this
 * same file). Tracing must hook the modules it instruments (http, express, pg) before they are first
 * imported, and a static import graph is loaded whole before any of it runs: so the server
 * (src/start.ts) is imported dynamically, after the OpenTelemetry SDK when tracing is wanted. When it
 * is not, no OpenTelemetry module is loaded by this file at all.
 */
// V8 moves an allocation site to the old generation when most of what it made survived a young
// collection. Under load that decision lands on request-sized objects (rows, views, answers), which
// then die in the old generation: the young collections grow 3-10x longer and copy megabytes each,
// and the server's CPU per request rose 30-45% in the runs where it happened (docs/performance.md,
// issue 43). Whether it happens varies from run to run; turned off, it never does. Set before the
// server is loaded, so no site is decided under the default.
v8.setFlagsFromString('--no-allocation-site-pretenuring');

if (tracingWanted(process.env)) {
  const { startTracing } = await import('./telemetry/start-tracing.js');
  await startTracing();
}
await import('./start.js');
