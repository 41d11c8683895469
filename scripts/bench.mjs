// npm run bench: runs every test/bench/*.bench.ts in turn (each prints its own table).
// Benchmarks measure; they do not pass or fail on timings.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const only = process.argv[2];
const dir = path.join(projectRoot, 'test/bench');
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()) {
  if (only && !file.includes(only)) continue;
  console.log(`\n### ${file}`);
  execFileSync(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(dir, file)], { stdio: 'inherit', cwd: projectRoot });
}
