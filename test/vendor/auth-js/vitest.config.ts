import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Runs the vendored auth-js integration suite (README.md here) with vitest instead of jest,
// against the auth server named by AUTH_JS_SUITE_URL. Started by
// test/integration/auth/auth-js-suite.test.ts, which starts that server.

const here = path.dirname(fileURLToPath(import.meta.url));
const authJs = path.resolve(here, '../../../node_modules/@supabase/auth-js/dist/main');

export default defineConfig({
  root: here,
  resolve: {
    alias: [
      // The suite imports the library's sources (../src/...); the installed build has the same modules.
      { find: /^(?:\.\.\/)+src$/, replacement: `${authJs}/index.js` },
      { find: /^(?:\.\.\/)+src\/(.*)$/, replacement: `${authJs}/$1.js` },
      { find: 'jsonwebtoken', replacement: path.join(here, 'shims/jsonwebtoken.ts') },
      { find: '@faker-js/faker', replacement: path.join(here, 'shims/faker.ts') },
    ],
  },
  test: {
    include: ['test/GoTrueApi.test.ts', 'test/GoTrueClient.test.ts'],
    environment: 'node',
    globals: true,
    setupFiles: [path.join(here, 'setup.ts')],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The suite shares module-level clients between files, as under jest: one file at a time.
    fileParallelism: false,
  },
});
