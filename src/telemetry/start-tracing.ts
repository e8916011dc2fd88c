import { register } from 'node:module';

/**
 * Starts OpenTelemetry tracing for this process (src/main.ts calls it before importing the server).
 * The server is ES modules: the instrumentations see `import express from 'express'` only through
 * the loader hook of `@opentelemetry/instrumentation` (import-in-the-middle), which must be
 * registered before those modules are loaded. The SDK itself is imported after the hook, then
 * started, and only then does the entry import the server.
 */
/** The packages the instrumentations of otel.ts patch, as the server imports them (pg-pool and Express's router are required from inside them). */
const INSTRUMENTED = ['express', 'pg', 'http', 'https'];

export async function startTracing(): Promise<void> {
  // Only the modules instrumented are wrapped: our own keep one instance each (src/tracing.ts is shared
  // by the entry and the server), and no other module pays for a wrapper.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: INSTRUMENTED } });
  const { startOpenTelemetry } = await import('./otel.js');
  startOpenTelemetry();
}
