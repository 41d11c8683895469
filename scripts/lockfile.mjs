// Keeps package-lock.json installable with `npm ci` on every platform (docs/deploy.md,
// "Locked installs").
//
//   node scripts/lockfile.mjs          repair the lockfile (run after adding or updating packages)
//   node scripts/lockfile.mjs --check  fail when `npm ci` would refuse the lockfile
//
// Why `npm ci` refused it: rollup ships its native binary as one optional dependency per
// platform, pinned to its own version. rollup 4.68.7 names @rollup/rollup-darwin-arm64@4.68.7
// and 22 other platform packages that the registry does not have (only the linux-x64-gnu and
// linux-arm64-gnu builds of 4.68.7 exist there). npm forgives an optional dependency it cannot
// resolve and writes the lockfile without it, but `npm ci` checks that every dependency in the
// tree has a lock entry and stops with "Missing: @rollup/rollup-darwin-arm64@ from lock file"
// (on every platform, and on macOS rollup would have no binary at all). Regenerating cannot
// help; rollup is pinned to 4.67.4, whose platform packages are all published.
//
// The repair removes the entries of packages whose optional dependencies are missing and lets
// npm resolve them again without a node_modules (--package-lock-only), which records every
// platform's optional package; everything else keeps its locked version. If npm ci still
// refuses, the missing packages are unpublished: the message names them and their parent.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const lockPath = path.join(projectRoot, 'package-lock.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const quiet = ['--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];

/** The lock entry that satisfies `name` as seen from `from` (node_modules lookup, inner to outer). */
function entryFor(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut === -1 ? '' : dir.slice(0, cut);
  }
}

/** Lock entries that declare optional dependencies the lockfile does not contain. */
export function incompleteEntries(lock) {
  const packages = lock.packages ?? {};
  return Object.entries(packages)
    .filter(([key, entry]) => key && Object.keys(entry.optionalDependencies ?? {}).some((name) => !entryFor(packages, key, name)))
    .map(([key]) => key);
}

/** The root package.json and each workspace's (package.json `workspaces`), where npm expects them under `dir`. */
function copyManifests(dir) {
  const { workspaces = [] } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
  for (const folder of ['.', ...workspaces]) {
    mkdirSync(path.join(dir, folder), { recursive: true });
    copyFileSync(path.join(projectRoot, folder, 'package.json'), path.join(dir, folder, 'package.json'));
  }
}

/** Runs `npm ci --dry-run` on a copy of package.json and the lockfile; returns npm's complaint, if any. */
export function npmCiProblem(lockFile = lockPath) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lime-lockcheck-'));
  try {
    copyManifests(dir);
    copyFileSync(lockFile, path.join(dir, 'package-lock.json'));
    execFileSync(npm, ['ci', '--dry-run', ...quiet], { cwd: dir, stdio: 'pipe' });
    return undefined;
  } catch (error) {
    return String(error.stderr ?? error.message);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function repair() {
  const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
  const incomplete = incompleteEntries(lock);
  const dir = mkdtempSync(path.join(tmpdir(), 'lime-lockfix-'));
  try {
    for (const key of incomplete) delete lock.packages[key];
    copyManifests(dir);
    writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
    // No node_modules here: npm resolves from the registry metadata and keeps every platform.
    execFileSync(npm, ['install', '--package-lock-only', ...quiet], { cwd: dir, stdio: 'inherit' });
    const problem = npmCiProblem(path.join(dir, 'package-lock.json'));
    if (problem) {
      const still = incompleteEntries(JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')));
      throw new Error(
        `npm ci still refuses the repaired lockfile. These packages name optional dependencies the registry does not have; pin them to a version whose platform packages are all published: ${still.join(', ')}\n${problem}`,
      );
    }
    copyFileSync(path.join(dir, 'package-lock.json'), lockPath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`package-lock.json: re-resolved ${incomplete.length} package(s) with missing optional dependencies; npm ci accepts it`);
  if (incomplete.length) console.log(`  ${incomplete.join('\n  ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) {
    const problem = npmCiProblem();
    if (problem) {
      console.error(`npm ci refuses package-lock.json. Repair it with: npm run lockfile\n\n${problem}`);
      process.exit(1);
    }
    console.log('package-lock.json: npm ci accepts it');
  } else {
    repair();
  }
}
