import { defineConfig, devices } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromiumArgs, chromiumExecutable } from './test/setup/chromium.ts';

// The config is evaluated by the runner and again by each worker; the port and data directory
// are chosen once and handed down through the environment so all of them agree.
if (!process.env.LIME_E2E_PORT) {
  process.env.LIME_E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
  process.env.LIME_E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'lime-e2e-'));
}
const port = Number(process.env.LIME_E2E_PORT);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: 'test/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'off',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } } }],
  webServer: {
    command: `node --conditions=source --import tsx reference-app/server/main.ts`,
    url: `${baseURL}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: process.env.LIME_E2E_DATA_DIR!,
      PUBLIC_URL: baseURL,
      NODE_ENV: 'production',
      // Rate limits stay on; the e2e suite signs in a handful of times, well under them.
    },
  },
});
