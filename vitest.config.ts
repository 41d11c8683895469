import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { playwright } from '@vitest/browser-playwright';
import { sourceAliases } from './scripts/source-aliases.mjs';
import { chromiumArgs, chromiumExecutable } from './test/setup/chromium.ts';

// Pre-bundled up front: otherwise Vite discovers these on first import in the browser, reloads
// the page mid-run and fails the file that triggered it (seen on a fresh dependency cache).
const SHIKI_LANGS = [
  'json',
  'javascript',
  'typescript',
  'python',
  'html',
  'css',
  'scss',
  'vue',
  'markdown',
  'yaml',
  'xml',
  'sql',
  'bash',
  'shell',
];
const SHIKI_THEMES = ['dark-plus', 'light-plus', 'github-dark', 'github-light', 'monokai', 'nord', 'one-dark-pro', 'dracula'];
export const browserPrebundle = [
  '@floating-ui/react',
  'downshift',
  'fuse.js',
  'dompurify',
  'xstate',
  '@xstate/react',
  '@xstate/store',
  '@supabase/auth-js',
  '@r2wc/react-to-web-component',
  // What the vanilla-extract plugin's recipe() compiles to in development: found on first use
  // otherwise, mid-run (28 November, a component run that never ended beside the e2e suite).
  '@vanilla-extract/recipes/createRuntimeFn',
  'd3-scale',
  'd3-shape',
  'uqr',
  'otpauth',
  'shiki/core',
  'shiki/engine/javascript',
  ...SHIKI_LANGS.map((l) => `shiki/langs/${l}.mjs`),
  ...SHIKI_THEMES.map((t) => `shiki/themes/${t}.mjs`),
];

/** See the integration-serial project below. */
const SERIAL_INTEGRATION = ['test/integration/reliability/**/*.test.ts', 'test/integration/**/*.timing.test.ts'];

export default defineConfig({
  plugins: [vanillaExtractPlugin(), react()],
  resolve: { alias: sourceAliases() },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          // No global setup: a unit file needs no server, so one file runs in seconds. A test
          // that needs the platform server belongs in test/integration/ (docs/testing.md).
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Tests that drive a real platform server over HTTP (their own, or the shared one of
          // the global setup): slower than unit tests, run after them.
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          exclude: SERIAL_INTEGRATION,
          globalSetup: ['test/setup/platform-server.ts', 'test/setup/server-bundle.ts'],
          // The files of a worker share one process and its modules instead of a new process
          // each: the server's modules load once per worker, not once per file, and every
          // platform server after the first starts from the PGlite WebAssembly the first one
          // compiled (db/pgliteThread.ts). docs/testing.md has the figures; a file that changes
          // process-wide state (process.env, listeners) puts it back, as the two that do already do.
          isolate: false,
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Integration tests that measure time (loop delay, fairness) or kill and restart
          // processes and databases: run one file at a time after the parallel integration
          // step, so another file's load neither slows them nor is disturbed by them.
          name: 'integration-serial',
          environment: 'node',
          include: SERIAL_INTEGRATION,
          globalSetup: ['test/setup/platform-server.ts', 'test/setup/server-bundle.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The production image built with Podman and started as it ships (docs/deploy.md,
          // "Container"); a step of its own in npm test, after the build.
          name: 'image',
          environment: 'node',
          include: ['test/image/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 1_200_000,
        },
      },
      {
        extends: true,
        optimizeDeps: { include: browserPrebundle },
        test: {
          name: 'component',
          include: ['test/component/**/*.test.tsx', 'test/component/**/*.test.ts'],
          setupFiles: ['test/setup/component.ts'],
          // The account panels' tests run against a real platform server.
          globalSetup: ['test/component/account/platform-server.ts'],
          testTimeout: 15_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({ launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
