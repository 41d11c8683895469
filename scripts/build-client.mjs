// npm run build:client: the @limelight/client package (packages/client), ESM and declarations
// by the repo's TypeScript, with an executable limelight-types CLI. It has no dependencies, so
// its own package.json needs no install (docs/sdk.md). The platform's rules (@limelight/rules,
// private, on no registry) are inlined: compiled into dist/rules/, and every built module that
// imports `@limelight/rules` imports that folder instead (docs/architecture.md, "Where the rules
// live").
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const dir = path.join(projectRoot, 'packages/client');
const dist = path.join(dir, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = (...args) => execFileSync('npx', ['tsc', ...args], { stdio: 'inherit', cwd: projectRoot });
tsc('-p', path.join(projectRoot, 'packages/rules/tsconfig.json'), '--outDir', path.join(dist, 'rules'));
tsc('-p', path.join(dir, 'tsconfig.json'));
inlineRules(dist, path.join(dist, 'rules'));
chmodSync(path.join(dist, 'cli.js'), 0o755);

/** Points each `@limelight/rules` import of the modules and declarations in `dir` at `rulesDir`. */
function inlineRules(dir, rulesDir) {
  for (const name of readdirSync(dir, { recursive: true }).map(String)) {
    const file = path.join(dir, name);
    if (!/\.(d\.ts|js)$/.test(name) || file.startsWith(rulesDir + path.sep)) continue;
    const source = readFileSync(file, 'utf8');
    if (!source.includes('@limelight/rules')) continue;
    const relative = path.relative(path.dirname(file), path.join(rulesDir, 'index.js')).split(path.sep).join('/');
    const target = relative.startsWith('.') ? relative : `./${relative}`;
    writeFileSync(
      file,
      source.replace(/(['"])@limelight\/rules\1/g, (_, quote) => `${quote}${target}${quote}`),
    );
  }
}
