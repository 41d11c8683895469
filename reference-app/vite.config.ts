import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceAliases } from '../scripts/source-aliases.mjs';
import { precompress } from '../scripts/precompress.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// The reference app imports only the package's public specifiers (@limelight/widgets/...);
// the aliases point them at the source so the site and the package never drift apart.
const outDir = path.join(here, '../dist/app');

/** Brotli and gzip copies of the build, served by Accept-Encoding (docs/deploy.md). */
const precompressBuild = (): Plugin => ({
  name: 'limelight-precompress',
  apply: 'build',
  async closeBundle() {
    await precompress(outDir);
  },
});

export default defineConfig({
  root: here,
  plugins: [vanillaExtractPlugin(), react(), precompressBuild()],
  resolve: { alias: sourceAliases() },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically, in one request instead of twenty small
            // ones (docs/deploy.md, "Lean first load": at most 15 scripts before interactive).
            { name: 'app', tags: ['$initial'], priority: 2 },
          ],
        },
      },
    },
  },
  // The code highlighter's worker (src/code/highlightWorker.ts) loads grammars on demand, so it
  // is built as an ES module with its own chunks, from the site's origin (script-src 'self').
  worker: { format: 'es' },
  server: { strictPort: true },
});
