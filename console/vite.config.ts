import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The back-office console (docs/adr/0065-console-a-client-of-graphql.md): a static build served by the service
 * at /console from dist/console (src/http/console.ts). No plugin: Vite's own transform compiles TSX with
 * React's automatic runtime.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // The service's CSP allows scripts from 'self' only: no inline module preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
    sourcemap: false,
  },
});
