// Makes the Node base image the Dockerfile builds on (`NODE_IMAGE`, docs/deploy.md, "Container")
// from this machine's own files, so the production image builds where no registry is reachable:
// FROM scratch, holding the host's `node` and npm, a POSIX shell (dash) and the few coreutils
// npm scripts and the Dockerfile call, the shared libraries `ldd` lists for them and for the
// native addons the server loads (sharp's libvips, argon2), and a `node` user (uid 1000) as the
// official node images have, and this machine's CA bundle. Built once per Node version and script content, then reused.
//
//   node scripts/node-image.mjs          prints the tag (building it when missing)
//   node scripts/node-image.mjs --force  rebuilds
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { podmanEnv } from './engine.mjs';
import { copyInto, sharedLibraries } from './fixture-image.mjs';
import { projectRoot } from './source-aliases.mjs';

/** The programs besides node: the shell npm runs scripts with, `env` for `#!/usr/bin/env node` bins, and the Dockerfile's. */
const TOOLS = ['/bin/sh', '/usr/bin/env', '/bin/mkdir', '/bin/chown', '/bin/rm', '/bin/ls'];

/** Native addons of the server's dependencies, whose libraries (libstdc++, libresolv, librt) the image needs too. */
function addonLibraries() {
  const addons = [];
  for (const dir of ['node_modules/@img', 'node_modules/@node-rs']) {
    const full = path.join(projectRoot, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full, { recursive: true }).map(String)) {
      if (/\.node$|\.so[.\d]*$/.test(name) && !name.includes('musl')) addons.push(path.join(full, name));
    }
  }
  return addons.flatMap((addon) => sharedLibraries(addon).filter((lib) => !lib.startsWith(projectRoot)));
}

/** The tag: Node's version and a digest of this script, so a changed recipe makes a new image. */
export function nodeImageTag() {
  const recipe = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex')
    .slice(0, 8);
  return `localhost/limelight-node:${process.versions.node}-${recipe}`;
}

const imageExists = (tag) => spawnSync('podman', ['image', 'exists', tag], { env: podmanEnv() }).status === 0;

/** Builds the image unless it exists (or `force`); returns its tag. */
export function buildNodeImage({ force = false } = {}) {
  const tag = nodeImageTag();
  if (!force && imageExists(tag)) return tag;
  const context = mkdtempSync(path.join(tmpdir(), 'limelight-node-image-'));
  try {
    const rootfs = path.join(context, 'rootfs');
    const node = process.execPath;
    const binaries = [node, ...TOOLS];
    for (const lib of new Set([...binaries.flatMap(sharedLibraries), ...addonLibraries()])) copyInto(rootfs, lib);
    for (const tool of TOOLS) copyInto(rootfs, tool);
    // Where the official images keep node and npm.
    mkdirSync(path.join(rootfs, 'usr/local/bin'), { recursive: true });
    cpSync(node, path.join(rootfs, 'usr/local/bin/node'));
    const npmDir = path.join(path.dirname(path.dirname(node)), 'lib/node_modules/npm');
    cpSync(npmDir, path.join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx'));
    mkdirSync(path.join(rootfs, 'etc'), { recursive: true });
    writeFileSync(path.join(rootfs, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
    writeFileSync(path.join(rootfs, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
    writeFileSync(path.join(rootfs, 'etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
    // This machine's trust store (egress may pass a TLS proxy with its own CA), for npm in the build stage.
    const caBundle = process.env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt';
    if (existsSync(caBundle)) copyInto(rootfs, caBundle);
    for (const dir of ['tmp', 'root', 'home/node']) mkdirSync(path.join(rootfs, dir), { recursive: true });
    chmodSync(path.join(rootfs, 'tmp'), 0o1777);
    writeFileSync(
      path.join(context, 'Containerfile'),
      [
        'FROM scratch',
        'COPY rootfs/ /',
        'RUN ["/bin/chown", "1000:1000", "/home/node"]',
        `ENV PATH=/usr/local/bin:/usr/bin:/bin NODE_VERSION=${process.versions.node}` +
          (existsSync(caBundle) ? ` NODE_EXTRA_CA_CERTS=${caBundle}` : ''),
        'CMD ["node"]',
        '',
      ].join('\n'),
    );
    execFileSync('podman', ['build', '--quiet', '-t', tag, context], { env: podmanEnv(), stdio: ['ignore', 'ignore', 'inherit'] });
    return tag;
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const tag = buildNodeImage({ force: process.argv.includes('--force') });
  console.error(`${tag} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(tag);
}
