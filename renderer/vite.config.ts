// Renderer build: root renderer/, output dist/renderer, relative base so the same files work
// under app://cairn/ (Electron) and at / (the web host). JSX via Vite's built-in Oxc transform.
// (No node:* import: renderer/ is lint-checked as browser code; URL is enough for a file path.)
import { defineConfig } from 'vite';

/** A path relative to this file, as a file-system path ('/C:/x' -> 'C:/x' on Windows). */
const here = (p: string): string => decodeURIComponent(new URL(p, import.meta.url).pathname).replace(/^\/([A-Za-z]:)/, '$1');

export default defineConfig({
  root: here('.'),
  base: './',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: here('../dist/renderer'),
    emptyOutDir: true,
    target: 'chrome140',
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // react-router marks its module "use client" (a server-components hint with no meaning here).
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: { fs: { allow: [here('..')] } },
});
