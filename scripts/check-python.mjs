// The Python package's static checks (docs/testing.md, "The Python package's checks"), one step of
// npm test: Ruff's linter and formatter (the official WebAssembly build, @astral-sh/ruff-wasm-nodejs,
// since no Python package index is reachable and Debian 12 has no ruff), pyright (npm) with
// Debian's /usr/bin/python3 as the environment (so FastAPI and pydantic resolve), and import cycles
// between the package's modules. Exits non-zero on any finding.
//   node scripts/check-python.mjs           check
//   node scripts/check-python.mjs --fix     also rewrite files: Ruff's safe fixes and its format
//   node scripts/check-python.mjs --fix sdk/python/limelight/cli    Ruff on those files or folders only
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { projectRoot } from './source-aliases.mjs';

const rootAt = process.argv.indexOf('--root');
/** The project checked: sdk/python, or `--root DIR` (a folder with a package and tests/, as in the check's own test). */
const PACKAGE_ROOT = rootAt > 0 ? path.resolve(process.argv[rootAt + 1]) : path.join(projectRoot, 'sdk/python');
const SOURCES = readdirSync(PACKAGE_ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(PACKAGE_ROOT, entry.name, '__init__.py')))
  .map((entry) => entry.name);
const PACKAGES = SOURCES.filter((name) => name !== 'tests');
const fix = process.argv.includes('--fix');
/** Files or folders named on the command line: Ruff looks at those only (pyright and cycles at all). */
const only = process.argv
  .slice(2)
  .filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--root')
  .map((arg) => path.resolve(arg));

/**
 * Ruff's settings, the same as `[tool.ruff]` would hold (the WebAssembly build takes them as an
 * object): pyflakes, pycodestyle, import order, pyupgrade to the oldest Python the package supports,
 * bugbear; the formatter with the project's line length.
 */
const RUFF_SETTINGS = {
  'line-length': 120,
  'target-version': 'py39',
  lint: { select: ['E', 'F', 'W', 'I', 'B', 'UP'], ignore: ['E501', 'UP006', 'UP007', 'UP035', 'UP045'] },
  format: { 'quote-style': 'double' },
};

function pythonFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '__pycache__' || entry.name.startsWith('.')) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...pythonFiles(file));
    else if (entry.name.endsWith('.py')) found.push(file);
  }
  return found;
}

function ruff(files) {
  const { Workspace, PositionEncoding } = createRequire(import.meta.url)('@astral-sh/ruff-wasm-nodejs');
  const workspace = new Workspace(RUFF_SETTINGS, PositionEncoding.Utf16);
  let problems = 0;
  for (const file of files) {
    const name = path.relative(projectRoot, file);
    let source = readFileSync(file, 'utf8');
    if (fix) source = applySafeFixes(workspace, source);
    for (const d of workspace.check(source)) {
      problems++;
      console.log(`${name}:${d.start_location.row}:${d.start_location.column}: ${d.code ?? 'syntax'} ${d.message}`);
    }
    const formatted = workspace.format(source);
    if (fix) {
      if (formatted !== readFileSync(file, 'utf8')) writeFileSync(file, formatted);
    } else if (formatted !== source) {
      problems++;
      console.log(`${name}: not formatted as Ruff formats it (node scripts/check-python.mjs --fix)`);
    }
  }
  return problems;
}

/**
 * Ruff's fixes that change no behaviour (import order, unused imports, f-strings without fields,
 * pyupgrade's spelling, whitespace), applied one at a time until none is left. The WebAssembly
 * build does not say which fixes Ruff itself deems safe, and some are not (bugbear's B006 turns a
 * `[]` default into None and changes an endpoint's documented default), so only these codes.
 */
const SAFE_FIXES = /^(I\d|F401$|F541$|UP\d|W\d)/;

function applySafeFixes(workspace, source) {
  for (let round = 0; round < 20; round++) {
    const fixable = workspace.check(source).find((d) => d.fix?.edits.length && SAFE_FIXES.test(d.code ?? ''));
    if (!fixable) return source;
    const lines = source.split('\n');
    const offset = ({ row, column }) => lines.slice(0, row - 1).reduce((n, line) => n + line.length + 1, 0) + column - 1;
    const edits = [...fixable.fix.edits].sort((a, b) => offset(b.location) - offset(a.location));
    for (const edit of edits)
      source = source.slice(0, offset(edit.location)) + (edit.content ?? '') + source.slice(offset(edit.end_location));
  }
  return source;
}

function pyright() {
  const bin = path.join(projectRoot, 'node_modules/pyright/index.js');
  const result = spawnSync(
    process.execPath,
    [bin, '--project', PACKAGE_ROOT, '--pythonpath', existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'],
    { stdio: 'inherit', cwd: PACKAGE_ROOT },
  );
  return result.status === 0 ? 0 : 1;
}

function cycles() {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  let found = 0;
  for (const name of PACKAGES) {
    const result = spawnSync(python, [path.join(projectRoot, 'scripts/python-cycles.py'), path.join(PACKAGE_ROOT, name)], {
      stdio: 'inherit',
    });
    if (result.status !== 0) found = 1;
  }
  return found;
}

const files = SOURCES.flatMap((dir) => pythonFiles(path.join(PACKAGE_ROOT, dir))).filter(
  (file) => only.length === 0 || only.some((named) => file === named || file.startsWith(named + path.sep)),
);
console.log(`== Ruff (${files.length} files)`);
const lint = ruff(files);
console.log(lint ? `Ruff: ${lint} finding(s)` : 'Ruff: no findings, formatted');
console.log('== Import cycles');
const cyc = cycles();
console.log('== pyright');
const types = pyright();
process.exit(lint || cyc || types ? 1 : 0);
