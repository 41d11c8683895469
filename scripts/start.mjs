// npm start: build the reference app when its sources are newer than the last build, then serve
// the site, the auth API, the platform API and the dev mailbox from one process.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

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

const stale =
  !existsSync(built) ||
  Math.max(newestMtime(path.join(projectRoot, 'src')), newestMtime(path.join(projectRoot, 'reference-app'))) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the reference app…');
  execFileSync('npx', ['vite', 'build', '--config', 'reference-app/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
    cwd: projectRoot,
  });
}

const server = spawn(
  process.execPath,
  ['--conditions=source', '--import', 'tsx', 'reference-app/server/main.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: projectRoot,
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
