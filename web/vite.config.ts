import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The API server `npm run dev:web` proxies to (start it with `npm start`). */
const api = process.env.MALLFRONT_API ?? 'http://localhost:4000';

export default defineConfig({
  root,
  plugins: [react()],
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
