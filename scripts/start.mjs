// npm start: build what is stale (the reference app into dist/app, the server into
// dist/server), then run the production server with plain node: the site, the auth API, the
// platform API and the dev mailbox on one port. WORKERS=N runs N processes (docs/deploy.md).
// `npm start -- --dev` runs the sources with Vite's dev server instead (same as `npm run dev`).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, SERVER_BUNDLE, serverBuildIsStale } from './build-server.mjs';
import { projectRoot } from './source-aliases.mjs';

const dev = process.argv.includes('--dev');
const built = path.join(projectRoot, 'dist/app/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'server') continue;
    const full = path.join(dir, name);
    const stat = statSync(full);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(full) : stat.mtimeMs);
  }
  return newest;
}

if (!dev) {
  const appStale =
    !existsSync(built) ||
    Math.max(newestMtime(path.join(projectRoot, 'src')), newestMtime(path.join(projectRoot, 'reference-app'))) > statSync(built).mtimeMs;
  if (appStale) {
    console.log('Building the reference app…');
    execFileSync('npx', ['vite', 'build', '--config', 'reference-app/vite.config.ts', '--logLevel', 'warn'], {
      stdio: 'inherit',
      cwd: projectRoot,
    });
  }
  if (serverBuildIsStale()) {
    console.log('Building the server…');
    await buildServer();
  }
}

const args = dev
  ? ['--conditions=source', '--import', 'tsx', 'reference-app/server/main.ts', ...process.argv.slice(2)]
  : ['--enable-source-maps', SERVER_BUNDLE, ...process.argv.slice(2)];
const server = spawn(process.execPath, args, { stdio: 'inherit', cwd: projectRoot });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
