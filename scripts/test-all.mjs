// npm test: every check, in order of cost, stopping at the first failure:
// type check, format check and the Python package's checks (in the background, beside lint and import cycles (dependency-cruiser, then scripts/folder-cycles.mjs, then the tests' server imports: scripts/test-imports.mjs)), unit tests, integration tests (real servers; then the timing and fault tests
// one at a time), component tests (real Chromium) with the Python SDK's tests beside them, build, then side by side package checks (publint, are-the-types-wrong, size
// budgets), consumers (the packed tarball in fresh Next.js, Node, TypeScript, Vite and Vue
// projects; test/consumers/run.mjs), the production image (the Dockerfile built and started with
// Podman; test/image), end-to-end tests (real Chromium against the real server).
// Test runners also write JSON reports so the run ends with one plain line
// "tests: N passed, N failed, N skipped" that any CI can read.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podmanUnavailableReason } from './engine.mjs';
import { collectLeftovers, markTestRun } from './leftovers.mjs';
import { projectRoot } from './source-aliases.mjs';

const reports = mkdtempSync(path.join(tmpdir(), 'lime-test-'));
// Every process this run starts carries its mark, so the run can tell at the end what it left.
const testRun = markTestRun();
const totals = { passed: 0, failed: 0, skipped: 0 };

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n━━ ${name}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: projectRoot, env: { ...process.env, ...env } });
  console.log(`━━ ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result.status === 0;
}

/**
 * A step started in the background, its output held back: `finish()` waits for it, then prints
 * its output and its "━━ name: ok in N s" line as step() does, hands the output to `count` (for
 * runners without a JSON report) and says whether it passed.
 */
function backgroundStep(name, command, args, count = () => {}) {
  const started = Date.now();
  console.log(`\n━━ ${name} (in the background): ${command} ${args.join(' ')}`);
  const child = spawn(command, args, { cwd: projectRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  const exited = new Promise((resolve) => {
    child.once('error', (error) => (output.push(Buffer.from(`${error.message}\n`)), resolve(1)));
    child.once('close', (status) => resolve(status));
  });
  return async () => {
    const status = await exited;
    const text = Buffer.concat(output);
    process.stdout.write(text);
    count(text.toString('utf8'));
    console.log(`━━ ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s (in the background)`);
    return status === 0;
  };
}

function countVitest(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
}

/** test/consumers/run.mjs: one test per consumer project. */
function countConsumers(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.passed;
  totals.failed += report.failed;
}

/** unittest prints "Ran N tests" and "OK (skipped=S)" or "FAILED (failures=F, errors=E, skipped=S)" on stderr. */
function countUnittest(output) {
  const ran = Number(output.match(/^Ran (\d+) tests?/m)?.[1] ?? 0);
  const count = (name) => Number(output.match(new RegExp(`${name}=(\\d+)`))?.[1] ?? 0);
  const failed = count('failures') + count('errors') + count('unexpected successes');
  const skipped = count('skipped') + count('expected failures');
  totals.passed += ran - failed - skipped;
  totals.failed += failed;
  totals.skipped += skipped;
}

/**
 * The interpreter for the Python tests: the first of $PYTHON, python3 and /usr/bin/python3 that can
 * import FastAPI, so limelight.serve's tests run. Debian's packages (python3-fastapi, …) live in
 * /usr/bin/python3's path, which a python3 earlier on PATH (pyenv) does not see; the same probe
 * as test/setup/servePython.ts. Without one, python3 runs the suite and the serve tests skip.
 */
function servePython() {
  const candidates = [process.env.PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean);
  const probe = (python) => spawnSync(python, ['-c', 'import fastapi, pydantic, uvicorn, multipart'], { stdio: 'ignore' }).status === 0;
  return candidates.find(probe) ?? 'python3';
}

/**
 * The Python SDK's unittest suite against a real server (sdk/python/tests, docs/sdk.md), started
 * in the background: it mostly waits on its server (36 CPU-s in 155 s of wall time, measured with
 * `time`), so it runs beside the component tests (docs/testing.md).
 */
function pythonSdkInBackground() {
  const args = ['-m', 'unittest', 'discover', '-s', 'sdk/python/tests', '-t', 'sdk/python'];
  return backgroundStep('python-sdk', servePython(), args, countUnittest);
}

/**
 * The Dockerfile built and started with Podman (test/image), in the background; skipped, saying
 * why, without Podman.
 */
function productionImageInBackground() {
  const unavailable = podmanUnavailableReason();
  if (unavailable) {
    console.log(`\n━━ image: SKIPPED: ${unavailable}; the production image test builds and runs the Dockerfile with Podman`);
    totals.skipped += 2;
    return async () => true;
  }
  return backgroundStep('image', 'npx', ['vitest', 'run', '--project', 'image', ...vitestReport('image')], () =>
    countVitest(path.join(reports, 'image.json')),
  );
}

/** Waits for every background step (none is left running) and says whether all passed. */
async function allPassed(finishers) {
  let ok = true;
  for (const finish of finishers) ok = (await finish()) && ok;
  return ok;
}

const vitestReport = (name) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reports, `${name}.json`)}`];

const CYCLE_ROOTS = ['reference-app/server', 'src', 'packages/client/src', 'packages/rules/src'];

/** A finisher that waits and prints once, however often it is awaited. */
const once = (finish) => {
  let result;
  return () => (result ??= finish());
};

/** The Python SDK's suite, started beside the component tests (awaited with the package step). */
let pythonSdk = async () => true;

const steps = [
  // The type check and the format check run in the background while lint and cycles take the
  // foreground (docs/testing.md): each is one process on one core, so side by side they use both.
  // The type check is TypeScript 7's native compiler (`typescript-native`, an npm alias beside
  // TypeScript 6, which the tools that load `typescript` as a library still need): the same errors
  // for about a third of the CPU time. Their output is printed when they end.
  async () => {
    const typecheck = backgroundStep('typecheck', 'npm', ['run', 'typecheck', '--silent']);
    const format = backgroundStep('format', 'npx', ['prettier', '--check', '.']);
    // The Python package's Ruff (lint and format), pyright and import cycles (scripts/check-python.mjs).
    const python = backgroundStep('python-checks', 'node', ['scripts/check-python.mjs']);
    const ok =
      step('lint', 'npx', ['eslint', '.', '--max-warnings=0']) &&
      // Import cycles in the server, the widgets and the SDK (.dependency-cruiser.mjs): none allowed;
      // then between the server's folders (scripts/folder-cycles.mjs): none but its listed edges.
      step('cycles', 'npx', ['depcruise', '--config', '.dependency-cruiser.mjs', '--output-type', 'err', ...CYCLE_ROOTS]) &&
      step('folder cycles', 'node', ['scripts/folder-cycles.mjs']) &&
      // Tests outside test/unit import the server only through its public entries, or say why they
      // reach inside (scripts/test-imports.mjs; docs/testing.md, "Tests and the server's entries").
      step('test imports', 'node', ['scripts/test-imports.mjs']);
    return (await allPassed([typecheck, format, python])) && ok;
  },
  () => {
    const ok = step('unit', 'npx', ['vitest', 'run', '--project', 'unit', ...vitestReport('unit')]);
    countVitest(path.join(reports, 'unit.json'));
    return ok;
  },
  () => {
    // Integration files mostly wait on servers, containers and databases, not the CPU: three at
    // once on two cores. Timing and fault tests run after, one file at a time (vitest.config.ts).
    const ok = step('integration', 'npx', ['vitest', 'run', '--project', 'integration', '--maxWorkers=3', ...vitestReport('integration')]);
    countVitest(path.join(reports, 'integration.json'));
    return ok;
  },
  () => {
    const ok = step('integration-serial', 'npx', [
      'vitest',
      'run',
      '--project',
      'integration-serial',
      '--maxWorkers=1',
      ...vitestReport('integration-serial'),
    ]);
    countVitest(path.join(reports, 'integration-serial.json'));
    return ok;
  },
  () => {
    // The Python SDK's suite mostly waits on its server (37 CPU-s in about 190 s): it starts beside
    // the component tests and goes on beside the build and the package step, which waits for it.
    pythonSdk = once(pythonSdkInBackground());
    const ok = step('component', 'npx', ['vitest', 'run', '--project', 'component', ...vitestReport('component')]);
    countVitest(path.join(reports, 'component.json'));
    return ok;
  },
  () => step('build', 'npm', ['run', 'build', '--silent']),
  // The package checks, the consumers and the production image only read the build's output, and
  // each leaves part of the machine idle (npm pack, installs, Podman's layers): they run side by
  // side, each printing its output when it ends (docs/testing.md).
  () => {
    const file = path.join(reports, 'consumers.json');
    return allPassed([
      backgroundStep('package', 'node', ['scripts/check-package.mjs']),
      backgroundStep('consumers', 'node', ['test/consumers/run.mjs', '--json', file], () => countConsumers(file)),
      productionImageInBackground(),
      pythonSdk,
    ]);
  },
  () => {
    const file = path.join(reports, 'e2e.json');
    const ok = step('e2e', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file });
    countPlaywright(file);
    return ok;
  },
];

let ok = true;
let stepFailed = false;
for (const run of steps) {
  if (!(await run())) {
    ok = false;
    stepFailed = true;
    break;
  }
}
// A step that failed before the package step leaves the Python suite running: its result too.
await pythonSdk();
// Nothing the tests started may outlive them (a server, a registry, a database, a container's
// monitor): what is left is named, stopped, and fails the run (scripts/leftovers.mjs).
const leftovers = await collectLeftovers(testRun);
if (leftovers.length > 0) {
  console.log(`\n━━ leftovers: FAILED: ${leftovers.length} process(es) the tests started are still running (now stopped):`);
  for (const { pid, command } of leftovers) console.log(`  ${pid} ${command.slice(0, 300)}`);
  ok = false;
}
console.log(
  `\n${ok ? 'All checks passed.' : stepFailed ? 'A check failed; later steps did not run.' : 'Every step passed, but processes were left running.'}`,
);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok ? 0 : 1);
