// npm run build:client: the @limelight/client package (packages/client), ESM and declarations
// by the repo's TypeScript, with an executable limelight-types CLI. It has no dependencies, so
// its own package.json needs no install (docs/sdk.md).
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const dir = path.join(projectRoot, 'packages/client');
rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
execFileSync('npx', ['tsc', '-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit', cwd: projectRoot });
chmodSync(path.join(dir, 'dist/cli.js'), 0o755);
