// The Dockerfile's build stage runs `npm ci` with every dev dependency and the two builds that
// npm test's build step has just run on this machine (`vite build` of the site and
// scripts/build-server.mjs): about half of the image step's time, spent making files that are
// already here. When dist/ is at least as new as every source, the image test hands those files
// to the runtime stage as the stage it copies from (`podman build --build-context build=DIR`):
// Podman then skips the build stage, and the runtime stage (its own locked install of the
// server's dependencies, the part that once failed) is built and started as it ships.
// IMAGE_TEST_FULL_BUILD=1 builds the build stage too (docs/deploy.md, "Container").
import { cpSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newestMtime, serverBuildIsStale } from '../../scripts/build-server.mjs';
import { projectRoot } from '../../scripts/source-aliases.mjs';

const SITE_INDEX = path.join(projectRoot, 'dist/app/index.html');
/** What `vite build --config reference-app/vite.config.ts` reads. */
const SITE_INPUTS = [
  'reference-app/src',
  'reference-app/index.html',
  'reference-app/public',
  'reference-app/vite.config.ts',
  'src',
  'package-lock.json',
];

/** Why the build stage must run, or undefined when this machine's dist/ can stand in for it. */
export function buildStageNeeded(): string | undefined {
  if (process.env.IMAGE_TEST_FULL_BUILD === '1') return 'IMAGE_TEST_FULL_BUILD=1';
  if (serverBuildIsStale()) return 'dist/server is missing or older than its sources';
  return siteBuildStale();
}

/**
 * Why a built site (dist/app, or another directory `vite build` wrote) is not this checkout's:
 * missing, or a source newer than it; undefined when it is current. The e2e suite warns with it.
 */
export function siteBuildStale(appDir = path.dirname(SITE_INDEX)): string | undefined {
  const index = path.join(appDir, 'index.html');
  const relative = path.relative(projectRoot, appDir);
  const name = relative && !relative.startsWith('..') ? relative : appDir;
  if (!existsSync(index)) return `${name} is missing`;
  const built = statSync(index).mtimeMs;
  const newer = SITE_INPUTS.find((input) => newestMtime(path.join(projectRoot, input)) > built);
  return newer && `${newer} is newer than ${name}`;
}

/**
 * A directory laid out as the build stage leaves its files (/app/dist/app, /app/dist/server),
 * for `--build-context build=…`.
 */
export function prebuiltStage(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lime-image-build-'));
  for (const part of ['app', 'server']) cpSync(path.join(projectRoot, 'dist', part), path.join(dir, 'app/dist', part), { recursive: true });
  return dir;
}
