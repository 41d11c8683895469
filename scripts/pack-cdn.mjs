// npm run pack:cdn: the script-tag bundles as their own artifact (docs/embeds.md, "Hosting the
// bundles"): dist/cdn (every lime-*.js, its chunks and their source maps) packed into
// dist/limelight-widgets-cdn-<version>.tgz, to unpack onto the CDN or any static host. The npm
// tarball leaves dist/cdn and source maps out (package.json `files`): npm users import the ES
// modules of dist/ and need neither. Needs `npm run build:lib` first.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const cdn = path.join(projectRoot, 'dist/cdn');
if (!existsSync(path.join(cdn, 'lime-service-search.js'))) {
  console.error('dist/cdn is missing: run `npm run build:lib` first');
  process.exit(1);
}
const { version } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
const artifact = path.join(projectRoot, `dist/limelight-widgets-cdn-${version}.tgz`);
execFileSync('tar', ['-czf', artifact, '-C', cdn, '.']);
console.log(`${path.relative(projectRoot, artifact)}: ${(statSync(artifact).size / 1e6).toFixed(2)} MB`);
