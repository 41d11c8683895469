// The consumers layer (npm test, step "consumers"; docs/frameworks.md): the packed tarball
// (`npm pack`) used as consumers use it, in fresh projects outside the repository:
//
//   node        plain Node: imports every entry and renderToString()s every component
//   typescript  the web-component typings (tag map, properties, event details, JSX, Vue) and the
//               stylesheet import, type-checked under `bundler` and `node16` resolution, by
//               TypeScript 6 and 7
//   vite        a Vite + React app (the code viewer's worker keeps its grammars as lazy chunks)
//   vite-signin a one-route Vite + React app with AuthDialog mode="page", signed in against a
//               platform server (test/e2e/support/server.ts) in Chromium: it stays put
//   vue         a Vite + Vue 3 app using two per-element entries (`isCustomElement`), built
//   next        a Next.js 16 App Router app (cacheComponents on) using ServiceSearch, AuthDialog
//               and ServiceRunner directly in a Server Component page and the catalogue engine in
//               another, `next build`; the tarball's "use client" marks (component entries marked,
//               /api, /catalogue, /auth, /run not)
//
// The snippets of docs/frameworks.md marked `<!-- consumer: <dir>/<file> -->` are written into
// the projects before they build, so the documentation is what is tested.
//
// Third-party packages (pinned below, plus the library's own dependencies) are installed once
// into node_modules/.cache/lime-consumers/<hash of the list>/ and reused by every consumer and
// every later run (from the npm cache or the registry); only the tarball is unpacked afresh.
// Needs `npm run build:lib` first. Usage: node test/consumers/run.mjs [--json <report>] [names...]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureElementSizes } from './sizes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const installed = (name) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

/** What the consumer projects install besides the library; frameworks pinned, the rest as the workspace has them. */
const THIRD_PARTY = {
  next: '16.4.6',
  vue: '3.5.45',
  '@vitejs/plugin-vue': '6.0.11',
  '@vitejs/plugin-react': installed('@vitejs/plugin-react'),
  react: installed('react'),
  'react-dom': installed('react-dom'),
  '@types/react': installed('@types/react'),
  '@types/react-dom': installed('@types/react-dom'),
  '@types/node': installed('@types/node'),
  typescript: installed('typescript'),
  // TypeScript 7 (the native compiler) beside the workspace's 6, for the typings consumer.
  typescript7: 'npm:typescript@7.0.2',
  vite: installed('vite'),
  ...pkg.dependencies,
};

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const reportFile = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : null;
const only = new Set(args);
const results = [];

function run(cmd, cmdArgs, cwd, env = {}) {
  const result = spawnSync(cmd, cmdArgs, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} exited ${result.status} in ${path.relative(root, cwd)}`);
}

async function consumer(name, body) {
  if (only.size > 0 && !only.has(name)) return;
  const started = Date.now();
  console.log(`\n── consumer ${name}`);
  try {
    await body();
    results.push({ name, ok: true, seconds: (Date.now() - started) / 1000 });
    console.log(`── consumer ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    results.push({ name, ok: false, seconds: (Date.now() - started) / 1000, error: String(error?.message ?? error) });
    console.error(`── consumer ${name}: FAILED: ${error?.message ?? error}`);
  }
}

/** docs/frameworks.md snippets: `<!-- consumer: next/app/page.tsx -->` followed by a fenced block. */
export function docSnippets(markdown) {
  const snippets = new Map();
  for (const match of markdown.matchAll(/<!-- consumer: ([\w./-]+) -->\s*```[\w-]*\n([\s\S]*?)```/g)) snippets.set(match[1], match[2]);
  return snippets;
}

// 1. Third-party packages, once per list.
const hash = createHash('sha256').update(JSON.stringify(THIRD_PARTY)).digest('hex').slice(0, 12);
const cacheDir = path.join(root, 'node_modules/.cache/lime-consumers', hash);
// Installs for other lists (older pins) are of no more use.
for (const old of existsSync(path.dirname(cacheDir)) ? readdirSync(path.dirname(cacheDir)) : []) {
  if (old !== hash) rmSync(path.join(path.dirname(cacheDir), old), { recursive: true, force: true });
}
const setupStarted = Date.now();
if (!existsSync(path.join(cacheDir, 'node_modules/.installed'))) {
  rmSync(cacheDir, { recursive: true, force: true });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(
    path.join(cacheDir, 'package.json'),
    JSON.stringify({ name: 'lime-consumers', private: true, type: 'module', dependencies: THIRD_PARTY }, null, 2),
  );
  console.log(`installing the consumers' packages into ${path.relative(root, cacheDir)}`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'], cacheDir);
  writeFileSync(path.join(cacheDir, 'node_modules/.installed'), new Date().toISOString());
}

// 2. The tarball, unpacked where `@limelight/widgets` resolves from every consumer.
const packDir = mkdtempSync(path.join(tmpdir(), 'lime-consumer-pack-'));
execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const tarball = path.join(
  packDir,
  readdirSync(packDir).find((f) => f.endsWith('.tgz')),
);
const target = path.join(cacheDir, 'node_modules/@limelight/widgets');
rmSync(target, { recursive: true, force: true });
mkdirSync(target, { recursive: true });
execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
rmSync(packDir, { recursive: true, force: true });
console.log(`consumers' setup: ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);

// 3. Each consumer: its fixture plus the documentation's snippets, in a fresh folder.
const snippets = docSnippets(readFileSync(path.join(root, 'docs/frameworks.md'), 'utf8'));
const workDir = path.join(cacheDir, 'work');
rmSync(workDir, { recursive: true, force: true });
function project(name) {
  const dir = path.join(workDir, name);
  cpSync(path.join(here, name), dir, { recursive: true });
  for (const [file, text] of snippets) {
    if (!file.startsWith(`${name}/`)) continue;
    const to = path.join(workDir, file);
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, text);
  }
  return dir;
}
const bin = (name) => path.join(cacheDir, 'node_modules/.bin', name);

await consumer('node', () => run(process.execPath, ['render-all.mjs'], project('node')));

await consumer('typescript', () => {
  const dir = project('typescript');
  const compilers = [bin('tsc'), path.join(cacheDir, 'node_modules/typescript7/bin/tsc')];
  for (const tsc of compilers) for (const config of ['tsconfig.bundler.json', 'tsconfig.node16.json']) run(tsc, ['-p', config], dir);
});

await consumer('vite', async () => {
  const dir = project('vite');
  run(bin('vite'), ['build', '--logLevel', 'warn'], dir);
  // With `worker.format: 'es'` (docs/frameworks.md) the highlighter worker loads each grammar
  // as a chunk of its own; with Vite's default (iife) every grammar is inlined into the worker
  // (measured: 1,065 kB against 169 kB), the Python one included.
  const assets = path.join(dir, 'dist/assets');
  const worker = readdirSync(assets).find((f) => /^highlightWorker[-.].*\.js$/.test(f));
  if (!worker) throw new Error(`no highlighter worker among ${readdirSync(assets).join(', ')}`);
  if (readFileSync(path.join(assets, worker), 'utf8').includes('source.python')) throw new Error(`${worker} inlines the grammars`);
  await firstHighlightInDevServer(dir);
});

/**
 * Vite's dev server with the documented config (docs/frameworks.md): the code viewer's first
 * highlight comes from the worker (tokens, no "Failed to highlight code", no fallback to the page).
 * The test's node_modules sit above the project, so the dev server is told it may serve them.
 */
async function firstHighlightInDevServer(dir) {
  // Debian's Chromium as test/setup/chromium.ts starts it (this file runs without a TS loader).
  const chromiumExecutable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'];
  const config = path.join(dir, 'vite.dev.config.js');
  writeFileSync(
    config,
    readFileSync(path.join(dir, 'vite.config.js'), 'utf8').replace(
      'plugins: [react()],',
      `plugins: [react()],\n  server: { fs: { allow: [${JSON.stringify(cacheDir)}] } },`,
    ),
  );
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  const server = spawn(bin('vite'), ['--config', config, '--port', String(port), '--strictPort', '--host', '127.0.0.1', '--force'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { chromium } = await import('playwright-core');
  let browser;
  try {
    await new Promise((resolve, reject) => {
      server.stdout.on('data', (chunk) => String(chunk).includes('ready in') && resolve());
      server.on('exit', (code) => reject(new Error(`vite dev exited ${code}`)));
      setTimeout(() => reject(new Error('vite dev did not start within 30 s')), 30_000);
    });
    browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
    const page = await browser.newPage();
    const warnings = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto(`http://127.0.0.1:${port}/`);
    // A cold dev server may serve the worker after the viewer's time limit: the viewer then shows
    // the code plain and highlights it when the worker answers (useCodeHighlight). What must not
    // happen is staying unhighlighted. The wait is long because `vite --force` optimises every
    // dependency afresh on the first request, beside the package and image steps: 30 s was passed
    // once in a CI run at that load (the same check passed in the ten runs before it).
    const highlighted = await page
      .waitForFunction(() => document.querySelectorAll('pre code span span').length > 0, null, { timeout: 90_000 })
      .then(() => true)
      .catch(() => false);
    if (!highlighted) throw new Error('the first highlight in the dev server failed');
    const fallback = warnings.find((text) => text.includes('highlighter worker failed'));
    if (fallback) throw new Error(`the dev server's highlight fell back to the page: ${fallback}`);
  } finally {
    await browser?.close();
    server.kill();
    rmSync(config, { force: true });
  }
}

await consumer('vite-signin', async () => {
  const dir = project('vite-signin');
  const platform = await startPlatformServer();
  try {
    const { authKey } = await (await fetch(`${platform.url}/config.json`)).json();
    const env = { VITE_LIMELIGHT_AUTH_KEY: authKey, LIMELIGHT_API_URL: platform.url };
    // The documented app (routes at /), and the same app with the default routes, where the
    // loop was found: the sign-in at / went to /account, whose page went to /account again.
    run(bin('vite'), ['build', '--logLevel', 'warn'], dir, env);
    const main = path.join(dir, 'src/main.jsx');
    const documented = readFileSync(main, 'utf8');
    const withDefaults = documented.replace(" routes={{ account: '/', dashboard: '/' }}", '');
    if (withDefaults === documented) throw new Error('the documented one-route app no longer sets routes at /');
    writeFileSync(main, withDefaults);
    run(bin('vite'), ['build', '--logLevel', 'warn', '--outDir', 'dist-default'], dir, env);
    await signInStaysPut(dir, 'dist', env, { loads: 0, path: '/', signOut: true });
    await signInStaysPut(dir, 'dist-default', env, { loads: 1, path: '/account', signOut: false });
  } finally {
    await platform.stop();
  }
});

/**
 * The platform server the e2e suite starts (test/e2e/support/server.ts: the seeded template, in
 * development mode so the demo account signs in), on a free port and a data directory of its own.
 */
async function startPlatformServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lime-consumer-platform-'));
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/e2e/support/server.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: url, NODE_ENV: 'development' },
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.exitCode !== null) {
      await stop();
      throw new Error(`the platform server exited ${server.exitCode} while starting`);
    }
    const ok = await fetch(`${url}/config.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the platform server did not start within 180 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * `vite preview` of one build, signed in with the demo account in Chromium: the main frame's
 * navigations after the click are counted (full loads and history changes alike) until a few
 * seconds after the page shows the user signed in; there must be `loads` of them, ending on
 * `path`. With `signOut`, the app's sign-out button brings the sign-in form back, in place.
 */
async function signInStaysPut(dir, outDir, env, expected) {
  const port = await freePort();
  const preview = spawn(bin('vite'), ['preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const { chromium } = await import('playwright-core');
  let browser;
  try {
    await new Promise((resolve, reject) => {
      preview.stdout.on('data', (chunk) => String(chunk).includes(String(port)) && resolve());
      preview.on('exit', (code) => reject(new Error(`vite preview exited ${code}`)));
      setTimeout(() => reject(new Error('vite preview did not start within 30 s')), 30_000);
    });
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByLabel('E-mail').fill('demo@limelight.dev');
    await page.getByLabel('Password', { exact: true }).fill('limelight-demo');
    const navigations = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(new URL(frame.url()).pathname));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const signedIn = page.getByText('Signed in as demo@limelight.dev');
    const shown = await signedIn
      .waitFor({ timeout: 20_000 })
      .then(() => true)
      .catch(() => false);
    // Long enough for a loop to show: it made 32 loads in 6 s.
    await page.waitForTimeout(4_000);
    const what = `${outDir}: ${navigations.length} navigations after the sign-in (${navigations.join(', ') || 'none'})`;
    console.log(what);
    if (!shown) throw new Error(`${what}; the page never showed the user signed in`);
    if (navigations.length !== expected.loads) throw new Error(`${what}, expected ${expected.loads}`);
    if (new URL(page.url()).pathname !== expected.path) throw new Error(`${what}: ended on ${page.url()}, expected ${expected.path}`);
    const status = page.getByRole('status').filter({ hasText: 'You are signed in.' });
    if ((await status.count()) !== 1) throw new Error(`${what}: the dialog does not say "You are signed in."`);
    if (expected.signOut) {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor({ timeout: 10_000 });
      if (navigations.length !== expected.loads) throw new Error(`${outDir}: the sign-out navigated (${navigations.join(', ')})`);
    }
  } finally {
    await browser?.close();
    preview.kill();
  }
}

await consumer('vue', async () => {
  const dir = project('vue');
  run(bin('vite'), ['build', '--logLevel', 'warn'], dir);
  // The app must contain the two elements it imported and none of the others.
  const assets = path.join(dir, 'dist/assets');
  const js = readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(assets, f), 'utf8'))
    .join('\n');
  // Each element's definition carries `tag: "<tag>"` (the quotes are the minifier's choice).
  const defines = (tag) => new RegExp(`tag:\\s*[\`'"]${tag}[\`'"]`).test(js);
  for (const tag of ['lime-service-search', 'lime-pricing-calculator']) if (!defines(tag)) throw new Error(`the Vue app lacks <${tag}>`);
  for (const tag of ['lime-service-runner', 'lime-api-keys', 'lime-code-viewer'])
    if (defines(tag)) throw new Error(`the Vue app carries <${tag}>, which it did not import`);
});

await consumer('next', () => {
  const dir = project('next');
  // The one line the documented config lacks here: the packages sit one folder up (shared by
  // every consumer), and Turbopack resolves nothing outside its root.
  const config = path.join(dir, 'next.config.mjs');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').replace(
      'const nextConfig = {',
      `const nextConfig = {\n  turbopack: { root: ${JSON.stringify(cacheDir)} },`,
    ),
  );
  // The public (anon) key the page reads, as a deployment would set it.
  run(bin('next'), ['build'], dir, { NEXT_TELEMETRY_DISABLED: '1', NEXT_PUBLIC_LIMELIGHT_AUTH_KEY: 'consumer-anon-key' });
  // app/catalogue/page.tsx (docs/frameworks.md) runs the catalogue engine in a Server Component:
  // its prerendered HTML holds what searchModels, servicePath, formatRuns and the /pricing formula
  // computed on the server.
  const html = readFileSync(path.join(dir, '.next/server/app/catalogue.html'), 'utf8');
  // $72: 100 requests an hour × 24 × 30 × 1 s × $0.001 a second, by the /pricing formula.
  for (const expected of ['href="/services/acme/Lime%20Diffusion%20XL"', '1.2K runs', '$72'])
    if (!html.includes(expected)) throw new Error(`the catalogue page's HTML lacks ${expected}`);
  if (html.includes('Lime Whisper')) throw new Error('the catalogue page did not search: it lists Lime Whisper');
  clientDirectives(path.join(cacheDir, 'node_modules/@limelight/widgets'));
});

/**
 * The published entries as a Server Component sees them (scripts/rollup/use-client.mjs): every
 * component entry starts with "use client"; the server-safe ones do not, while the React modules
 * behind `/catalogue` and `/auth` do.
 */
function clientDirectives(packageDir) {
  const marked = (file) => readFileSync(path.join(packageDir, file), 'utf8').startsWith('"use client";');
  const { exports } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const componentEntries = Object.values(exports)
    .map((target) => target.default)
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/components/'));
  if (componentEntries.length < 17) throw new Error(`only ${componentEntries.length} component entries found`);
  const serverSafe = [
    './dist/api/index.js',
    './dist/catalogue/index.js',
    './dist/pricing/index.js',
    './dist/auth/index.js',
    './dist/run/index.js',
  ];
  const clientModules = ['./dist/catalogue/react.js', './dist/auth/AuthProvider.js'];
  const wrong = [
    ...componentEntries
      .concat(clientModules)
      .filter((file) => !marked(file))
      .map((file) => `${file} lacks "use client"`),
    ...serverSafe.filter(marked).map((file) => `${file} starts with "use client"`),
  ];
  if (wrong.length > 0) throw new Error(wrong.join('; '));
}

if (only.size === 0 || only.has('sizes')) {
  const sizes = await measureElementSizes(path.join(cacheDir, 'node_modules'));
  console.log('\nweb components from npm, each bundled alone with React (minified, gzip):');
  for (const { entry, bytes } of sizes) console.log(`  ${entry.padEnd(48)} ${(bytes / 1000).toFixed(1)} kB`);
}

const failed = results.filter((r) => !r.ok);
console.log(
  `\nconsumers: ${results.length - failed.length} passed, ${failed.length} failed (${results.map((r) => `${r.name} ${r.seconds.toFixed(1)} s`).join(', ')})`,
);
if (reportFile)
  writeFileSync(reportFile, JSON.stringify({ passed: results.length - failed.length, failed: failed.length, results }, null, 2));
process.exit(failed.length === 0 ? 0 : 1);
