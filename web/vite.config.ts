import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The API server `npm run dev:web` proxies to (start it with `npm start`). */
const api = process.env.MALLFRONT_API ?? 'http://localhost:4000';

/** Text files worth compressing; smaller ones are sent as they are (the headers would outweigh the saving). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) twin of every built text file, once
 * at build time, so the server sends them with `Content-Encoding` and spends no CPU per request
 * (src/server/precompressed.ts).
 */
function precompress(): Plugin {
  return {
    name: 'mallfront-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir!;
      const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(at, e.name)) : [join(at, e.name)]));
      for (const file of walk(dir).filter((f) => COMPRESSIBLE.test(f))) {
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root,
  plugins: [react(), precompress()],
  build: {
    // Served by the API server at `/` (src/server/web-app.ts).
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The build prints each chunk with its gzip size; the first page's total is checked by a test.
    reportCompressedSize: true,
    rollupOptions: {
      // GraphiQL is a page of its own (served at GET /graphql), never part of the storefront's bundle.
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), graphiql: fileURLToPath(new URL('graphiql.html', import.meta.url)) },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: api, ws: true, changeOrigin: true },
      '/api': { target: api, changeOrigin: true },
    },
  },
});
