import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';

// The image build's npm cache: a private snapshot of the host's, so `npm ci` in the Dockerfile
// fetches only what this machine lacks, and nothing that runs beside the build can change it.
// The build used to mount the host's cache itself as an overlay (`-v cache:/root/.npm:O`) while
// npm test's consumers step ran `npm install`s writing into that same cache: an overlay whose
// lower directory changes while mounted is undefined behaviour, and the runtime stage's
// `npm cache clean --force` failed with ENOTEMPTY (a fresh-clone CI run, docs/testing.md).
//
// cacache's content files (content-v2) are written once under their hash and never changed, so
// the snapshot hard-links them (no copy of the bytes); its index (index-v5) is appended to in
// place, so it is copied. The snapshot sits beside the host cache, on the same file system.

/** A private snapshot of the host's npm cache for one build, or undefined when it has none. */
export function snapshotNpmCache(): string | undefined {
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  if (!cache || !existsSync(path.join(cache, '_cacache'))) return undefined;
  const snapshot = mkdtempSync(path.join(path.dirname(cache), '.limelight-image-npm-cache-'));
  copyTree(path.join(cache, '_cacache'), path.join(snapshot, '_cacache'), (file) => file.includes(`${path.sep}content-v2${path.sep}`));
  return snapshot;
}

/** Copies `from` into `to`, hard-linking the files `link` names (copying where a link fails). */
function copyTree(from: string, to: string, link: (file: string) => boolean): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyTree(source, target, link);
    else if (entry.isFile()) {
      // A file npm removes meanwhile (its own cache cleaning) is simply not in the snapshot.
      try {
        if (link(source)) linkOrCopy(source, target);
        else copyFileSync(source, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}

function linkOrCopy(source: string, target: string): void {
  try {
    linkSync(source, target);
  } catch (error) {
    if (!['EXDEV', 'EPERM', 'EMLINK'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    copyFileSync(source, target);
  }
}
