import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The web canvas, built into dist/web by `npm run build`. Hashed files go to /static/ (the server's /assets/ are
 * the files node runs produce) and are cached for a year; index.html is never cached.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'static',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8787', '/auth': 'http://127.0.0.1:8787', '/assets': 'http://127.0.0.1:8787' },
  },
});
