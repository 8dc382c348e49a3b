/**
 * Vite configuration of the web UI. `npx vite build web` writes static files to dist/web, which
 * `infersight serve` serves at `/`; `npx vite web` starts a dev server that proxies the API to an
 * Infersight on 127.0.0.1:9300 (override with INFERSIGHT_URL).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const target = process.env.INFERSIGHT_URL ?? 'http://127.0.0.1:9300';

export default defineConfig({
  root: webRoot,
  // Relative asset URLs: the app lives at `/`, `/explore` and `/targets`, all one level deep.
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 900,
  },
  server: {
    // web/ imports types and data from ../src (query, dashboards, semconv).
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: { '/api': { target, changeOrigin: false } },
  },
});
