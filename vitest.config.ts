import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import { playwright } from '@vitest/browser-playwright';
import { sourceAliases } from './scripts/source-aliases.mjs';
import { chromiumArgs, chromiumExecutable } from './test/setup/chromium.ts';

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
          globalSetup: ['test/setup/platform-server.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          include: ['test/component/**/*.test.tsx', 'test/component/**/*.test.ts'],
          setupFiles: ['test/setup/component.ts'],
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
