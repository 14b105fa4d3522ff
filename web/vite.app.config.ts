import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

/**
 * The MCP App (the ui:// resource get_canvas names), built by `npm run build` into one self-contained HTML file,
 * dist/mcp-app/app.html: a host renders it in a sandboxed iframe with no server behind it, so every script and style
 * is inline.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), viteSingleFile()],
  build: {
    outDir: fileURLToPath(new URL('../dist/mcp-app', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: fileURLToPath(new URL('app.html', import.meta.url)) },
  },
});
