import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceAliases } from '../scripts/source-aliases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

// The reference app imports only the package's public specifiers (@limelight/widgets/...);
// the aliases point them at the source so the site and the package never drift apart.
export default defineConfig({
  root: here,
  plugins: [vanillaExtractPlugin(), react()],
  resolve: { alias: sourceAliases() },
  build: { outDir: path.join(here, '../dist/app'), emptyOutDir: true, sourcemap: true },
  server: { strictPort: true },
});
