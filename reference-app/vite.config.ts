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
// The server-side build of the app (src/entry-server.tsx), beside the platform server's bundle:
// the image copies dist/server whole (Dockerfile), and nothing in it is served to browsers.
const ssrOutDir = path.join(here, '../dist/server/ssr');

/** Brotli and gzip copies of the build, served by Accept-Encoding (docs/deploy.md). */
const precompressBuild = (): Plugin => ({
  name: 'limelight-precompress',
  apply: 'build',
  applyToEnvironment: (environment) => environment.name === 'client',
  async closeBundle() {
    await precompress(outDir);
  },
});

export default defineConfig({
  root: here,
  plugins: [vanillaExtractPlugin(), react(), precompressBuild()],
  resolve: { alias: sourceAliases() },
  // `vite build` builds both environments: the browser's (dist/app) and the server's (dist/server/ssr).
  builder: {},
  environments: {
    ssr: {
      // Everything bundled: the image installs only the platform server's own dependencies.
      resolve: { noExternal: true },
      build: {
        outDir: ssrOutDir,
        emptyOutDir: true,
        sourcemap: true,
        // The public files are served from dist/app; the server build needs none of them.
        copyPublicDir: false,
        rolldownOptions: { input: { 'entry-server': path.join(here, 'src/entry-server.tsx') } },
      },
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: true,
    // Which CSS and scripts each page needs, for the server-rendered pages' <head> (server/http/siteAssets.ts).
    manifest: true,
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
