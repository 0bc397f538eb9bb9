// The web console: Preact + Vite, built into ui/dist and served by the API server at `/`
// (src/http/ui-static.ts). `npm run ui:dev` serves it with hot reload against a running
// server on :3000 (PORT).
import path from 'node:path';
import { defineConfig } from 'vite';

const api = `http://127.0.0.1:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  // The one DSL package (dsl/) and the chain package (chains/), shared with the server and the workflows.
  resolve: {
    alias: {
      '@dsl': path.resolve(import.meta.dirname, '../dsl'),
      '@chains': path.resolve(import.meta.dirname, '../chains'),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: false, reportCompressedSize: false },
  server: { proxy: { '/api': { target: api, ws: true }, '/rulego': api, '/openapi.json': api } },
});
