import { defineConfig, devices } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { siteBuildStale } from './test/image/prebuiltStage.ts';
import { chromiumArgs, chromiumExecutable } from './test/setup/chromium.ts';

// The config is evaluated by the runner and again by each worker; the port and data directory
// are chosen once and handed down through the environment so all of them agree.
// Two free ports: the site and a plain third-party page that embeds the widgets (embeds.spec.ts).
if (!process.env.LIME_E2E_PORT) {
  const [sitePort, embedPort] = execFileSync(process.execPath, [
    '-e',
    "const n=require('net');const a=n.createServer().listen(0,'127.0.0.1',()=>{const b=n.createServer().listen(0,'127.0.0.1',()=>{console.log(a.address().port,b.address().port);a.close();b.close()})})",
  ])
    .toString()
    .trim()
    .split(' ');
  process.env.LIME_E2E_PORT = sitePort;
  process.env.LIME_EMBED_PORT = embedPort;
  process.env.LIME_E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'lime-e2e-'));
  // The server serves the built site (dist/app, or APP_DIR), as production does; CI's build step
  // runs just before. Locally a build older than the sources tests an earlier site: say so.
  const stale = siteBuildStale(process.env.APP_DIR ? path.resolve(process.env.APP_DIR) : undefined);
  if (stale) console.warn(`e2e: ${stale}, so the site under test is not this checkout's: run npm run build:app first.`);
}
const port = Number(process.env.LIME_E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  // One spec file at a time: two at once on this 2-core machine took 513 s against 520 s for
  // one (the browsers and the server already use both cores), with more risk of timeouts.
  workers: 1,
  // The two tests CI retried on the 28 November fresh clone had causes, both fixed: run.spec
  // "a missing required field is marked" read a balance another test's job moved, and account-ux
  // "profile: a 422 shows on its field" lost the typed mobile to the profile arriving after the
  // field was enabled (ProfileForm's draft was copied from the data by an effect; now derived).
  // One retry stays in CI as a guard against the machine's load (axe audits run close to their
  // limits at load 20+): a retried test is reported as flaky in the run's output, to be found and
  // fixed like these two, and a test that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'off',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } } },
  ],
  webServer: {
    // reference-app/server/main.ts on a copy of the tests' seeded database (support/server.ts).
    command: `node --conditions=source --import tsx test/e2e/support/server.ts`,
    url: `${baseURL}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: process.env.LIME_E2E_DATA_DIR!,
      PUBLIC_URL: baseURL,
      // Development mode: the suite reads the dev mailbox and signs in with the demo accounts,
      // which NODE_ENV=production turns off (docs/security.md).
      NODE_ENV: 'development',
      // Journeys sign up and then sign up again or resend within seconds, as a tester clicks;
      // the per-address mail interval (60 s by default) is pinned by the unit tests instead.
      EMAIL_MIN_INTERVAL: '0',
      // The embed fixture page is a third-party origin: the server must allow it by CORS.
      CORS_ORIGINS: `http://127.0.0.1:${process.env.LIME_EMBED_PORT}`,
      // Rate limits stay on; the e2e suite signs in a handful of times, well under them.
      // One social provider turned on (GitHub; the others stay off), whose "provider" is the
      // server's own callback answering as a provider does when the user declines: the sign-in
      // dialog shows only GitHub, and the declined sign-in comes back with an error (auth.spec.ts).
      OAUTH_GITHUB_CLIENT_ID: 'e2e-github',
      OAUTH_GITHUB_CLIENT_SECRET: 'e2e-github-secret',
      OAUTH_GITHUB_AUTHORIZE_URL: `${baseURL}/auth/v1/callback?error=access_denied&error_description=The+user+declined`,
    },
  },
});
