// Builds the fixture container image (docs/publishing.md, "The fixture image"): FROM scratch,
// holding only the host's `node` binary, the shared libraries `ldd` lists for it and
// test/fixtures/container/service.mjs. No base image is pulled, so it builds offline.
//
//   node scripts/fixture-image.mjs [tag]     default tag: localhost/limelight-fixture:latest
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podmanEnv } from './engine.mjs';
import { projectRoot } from './source-aliases.mjs';

export const FIXTURE_IMAGE = 'localhost/limelight-fixture:latest';
const SERVICE_SCRIPT = path.join(projectRoot, 'test/fixtures/container/service.mjs');

/** The absolute paths of the libraries the dynamic loader needs for `binary`, loader included. */
export function sharedLibraries(binary) {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  return [...out.matchAll(/(\/\S+)\s+\(0x/g)].map((m) => m[1]);
}

/** Copies `file` (its target, when a link) to the same absolute path under `root`. */
export function copyInto(root, file) {
  const target = path.join(root, file);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(realpathSync(file), target);
}

/** Builds the image with `podman build` and returns its tag. */
export function buildFixtureImage(tag = FIXTURE_IMAGE) {
  const context = mkdtempSync(path.join(tmpdir(), 'limelight-fixture-'));
  try {
    const rootfs = path.join(context, 'rootfs');
    const node = realpathSync(process.execPath);
    copyInto(rootfs, node);
    for (const lib of sharedLibraries(node)) copyInto(rootfs, lib);
    copyFileSync(SERVICE_SCRIPT, path.join(rootfs, 'service.mjs'));
    mkdirSync(path.join(rootfs, 'tmp'), { recursive: true });
    writeFileSync(
      path.join(context, 'Containerfile'),
      ['FROM scratch', 'COPY rootfs/ /', 'EXPOSE 8080', `ENTRYPOINT ["${node}", "/service.mjs"]`, ''].join('\n'),
    );
    execFileSync('podman', ['build', '--quiet', '-t', tag, context], { env: podmanEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const tag = buildFixtureImage(process.argv[2]);
  console.log(`Built ${tag} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
