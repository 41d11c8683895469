// Debian's Chromium, started the way this sandbox allows (no sandbox, no GPU, no background
// network). Shared by vitest browser mode, Playwright e2e tests and benchmarks.
export const chromiumExecutable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];
