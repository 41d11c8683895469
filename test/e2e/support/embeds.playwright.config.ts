// Runs only the embed tests (npx playwright test -c test/e2e/support/embeds.playwright.config.ts)
// with the two settings they need from the main config: a fixed port for the fixture page
// (LIME_EMBED_PORT) and that origin in the platform server's CORS_ORIGINS. Same as the main
// playwright.config.ts once it carries those settings.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../../../playwright.config';

if (!process.env.LIME_EMBED_PORT) {
  process.env.LIME_EMBED_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
}
const embedOrigin = `http://127.0.0.1:${process.env.LIME_EMBED_PORT}`;
const webServer = Array.isArray(base.webServer) ? base.webServer[0]! : base.webServer!;

export default defineConfig({
  ...base,
  testDir: '..',
  testMatch: process.env.EMBED_SPEC ?? 'embeds.spec.ts',
  // The main config's command is relative to the repository root.
  webServer: { ...webServer, cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'), env: { ...webServer.env, CORS_ORIGINS: [webServer.env?.CORS_ORIGINS, embedOrigin].filter(Boolean).join(',') } },
});
