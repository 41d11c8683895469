// npm run test:package: the API report matches the sources (scripts/api-report.mjs), the wire
// types match the server's OpenAPI document (scripts/contract.mjs), the widgets' dependencies are
// exactly what dist/ imports (scripts/package-imports.mjs), the packed tarballs (@limelight/widgets
// and @limelight/client) pass publint and are-the-types-wrong, and the script-tag bundles stay
// within their size budgets. Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtImports, dependencyProblems, isBuiltin, packageOf } from './package-imports.mjs';
import { projectRoot } from './source-aliases.mjs';

const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', cwd: projectRoot });

// The public surface first: it needs only the sources, and a stale report is the cheaper fix.
console.log('\n== API report');
run('node', ['scripts/api-report.mjs', '--check']);
console.log('\n== Wire contract');
run('node', ['scripts/contract.mjs', '--check']);

if (!existsSync(path.join(projectRoot, 'dist/index.js'))) {
  console.error('dist/ is missing: run `npm run build:lib` first');
  process.exit(1);
}

// The dependencies are exactly what the tarball's JavaScript imports (scripts/package-imports.mjs);
// dist/cdn bundles everything and is not in the tarball (package.json `files`).
console.log('\n== Dependencies = what dist/ imports');
const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const problems = dependencyProblems(manifest, await builtImports(path.join(projectRoot, 'dist'), ['app', 'server', 'storybook', 'cdn']));
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`${Object.keys(manifest.dependencies).length} dependencies, each imported by dist/`);

// The production image installs the reference-app workspace's dependencies and nothing else
// (Dockerfile), so the server bundle may load no other package: not by import, nor by the
// require() its CommonJS parts and lazy loads (dockerode) use. Vite loads only with --dev, and
// pg tries pg-native and does without.
console.log('\n== The server bundle loads only reference-app dependencies');
const serverApp = JSON.parse(readFileSync(path.join(projectRoot, 'reference-app/package.json'), 'utf8'));
const serverLoads = await builtImports(path.join(projectRoot, 'dist/server'));
for (const bundle of readdirSync(path.join(projectRoot, 'dist/server')).filter((name) => name.endsWith('.mjs'))) {
  const text = readFileSync(path.join(projectRoot, 'dist/server', bundle), 'utf8');
  for (const [, specifier] of text.matchAll(/(?:require|createRequire\([^()]*\))\("([^".][^"]*)"\)/g)) {
    if (!isBuiltin(specifier)) serverLoads.set(packageOf(specifier), `dist/server/${bundle}`);
  }
}
const serverMissing = [...serverLoads].filter(([name]) => !['vite', 'pg-native'].includes(name) && !(name in serverApp.dependencies));
if (serverMissing.length) {
  console.error(serverMissing.map(([name, file]) => `${file} loads ${name}: add it to reference-app/package.json dependencies`).join('\n'));
  process.exit(1);
}
console.log(`${[...serverLoads.keys()].sort().join(', ')}: each a dependency of reference-app (or --dev/optional only)`);

const packDir = mkdtempSync(path.join(tmpdir(), 'lime-pack-'));
try {
  execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = path.join(
    packDir,
    readdirSync(packDir).find((f) => f.endsWith('.tgz')),
  );
  console.log(`\n== publint ${path.basename(tarball)}`);
  run('npx', ['publint', 'run', tarball, '--strict', '--level', 'suggestion']);
  console.log(`\n== are-the-types-wrong ${path.basename(tarball)}`);
  // The package is ESM-only by design (type: module, no require condition), so the esm-only
  // profile: every entry must resolve with correct types under node16-esm and bundler.
  // The stylesheet is not a module; the theme wildcard is expanded so each theme file is checked.
  // CommonJS consumers: docs/frameworks.md, "What a consumer imports" (require(esm), node20).
  run('npx', [
    'attw',
    tarball,
    '--profile',
    'esm-only',
    '--format',
    'table-flipped',
    '--exclude-entrypoints',
    './styles.css',
    '--include-entrypoints',
    './theme/dark',
    './theme/light',
    './theme/contract',
    // Per-element web-component entries (a pattern): two of them stand for the rest.
    './web-components/service-search',
    './web-components/api-keys',
  ]);
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

// @limelight/client (packages/client, built by build:client): its own tarball, the same checks.
const clientDir = path.join(projectRoot, 'packages/client');
if (!existsSync(path.join(clientDir, 'dist/index.js'))) {
  console.error('packages/client/dist is missing: run `npm run build:client` first');
  process.exit(1);
}
const clientPackDir = mkdtempSync(path.join(tmpdir(), 'lime-client-pack-'));
try {
  execFileSync('npm', ['pack', '--silent', '--pack-destination', clientPackDir], {
    cwd: clientDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = path.join(
    clientPackDir,
    readdirSync(clientPackDir).find((f) => f.endsWith('.tgz')),
  );
  console.log(`\n== publint ${path.basename(tarball)}`);
  run('npx', ['publint', 'run', tarball, '--strict', '--level', 'suggestion']);
  console.log(`\n== are-the-types-wrong ${path.basename(tarball)}`);
  run('npx', ['attw', tarball, '--profile', 'esm-only', '--format', 'table-flipped']);
} finally {
  rmSync(clientPackDir, { recursive: true, force: true });
}

if (existsSync(path.join(projectRoot, 'scripts/check-sizes.mjs'))) {
  console.log('\n== size budgets');
  run('node', ['scripts/check-sizes.mjs']);
}
console.log('\npackage checks passed');
