// The publisher's path, measured (docs/publishing.md, "Write a service in Python"): npm run bench publish
// On a real platform with its registry and runner on (Podman), for the OCR example (examples/ocr,
// a real Python service running Tesseract): limelight build, push and deploy (to a running
// deployment), the first answer through the job API, then BENCH_COLD (default 5) cold starts of
// its image per warm-pool technique (paused, created, none: "no running instance" → "the
// container answered an OCR run"), and a second build + push after a code-only change (the base
// and weights layers reused). The base image is cached by limelight build; the first run makes it.
// Then issue 49's one command: a folder never built (a small service importing a package from a
// wheel of the folder, its base cached) to a running service with `limelight push --deploy`, and
// a code-only change pushed and deployed the same way, checking that the Python packages' layer
// is reused (pip not run, the layer's digest unchanged).
// Prints one JSON line per technique and one for the one command. It measures and never fails on timings.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '../../packages/client/src/index';
import { removeImagesOf, startPublishingPlatform } from '../setup/publishingPlatform';
import { InstanceFactory, type WarmStrategy } from '../../reference-app/server/hosting/instances';
import { limitsFor } from '../../reference-app/server/hosting/limits';
import { podmanEnv } from '../../scripts/engine.mjs';
import { engineSkipReason, startTestEngine } from '../setup/containerEngine';
import { findServePython, SDK_PYTHON_PATH } from '../setup/servePython';
import { makeTinyWheel } from '../setup/tinyWheel';
import { confirmedUser, rawApi, signedIn } from '../integration/helpers';
import { textPng } from '../fixtures/textPng';

const COLD = Number(process.env.BENCH_COLD ?? 5);
const python = findServePython();
const skip = engineSkipReason() ?? python.skip;
if (skip) {
  console.log(`publish bench skipped: ${skip}`);
  process.exit(0);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
};

function limelightSaying(args: string, cwd: string, env: Record<string, string>): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${python.python} -m limelight ${args}`], { cwd, env: { ...podmanEnv(), ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) =>
      status === 0 ? resolve({ ms: performance.now() - started, output }) : reject(new Error(`limelight ${args}: ${output}`)),
    );
  });
}

const limelight = async (args: string, cwd: string, env: Record<string, string>) => (await limelightSaying(args, cwd, env)).ms;

/** The one-command service: a package from the folder's wheel; `version` tells a change's answer apart. */
const greeterMain = (version: number) => `import tinyword
from limelight.serve import App

app = App(title="Greeter")


@app.endpoint("/greet", time_limit_s=30)
def greet(name: str = "world") -> dict:
    return {"greeting": tinyword.greet(name), "version": ${version}}
`;

const layersOf = (image: string) =>
  JSON.parse(
    spawnSync('podman', ['image', 'inspect', '--format', '{{json .RootFS.Layers}}', image], { env: podmanEnv(), encoding: 'utf8' }).stdout,
  ) as string[];

const png = await textPng('HELLO', 800, 200);
const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
const seconds = (ms: number) => Math.round(ms / 100) / 10;

const t = await startTestEngine();
const dir = mkdtempSync(path.join(tmpdir(), 'limelight-publish-bench-'));
const server = await startPublishingPlatform(t, path.join(dir, 'platform'));
const name = `ocr-bench-${process.pid}`;
const folder = path.join(dir, 'ocr');
const greeterName = `greeter-bench-${process.pid}`;
const pythonImages = new Set<string>();
try {
  cpSync(path.resolve('examples/ocr'), folder, { recursive: true });
  // The example names itself; a second `name:` is refused (limelight.yaml allows a key once).
  const yaml = path.join(folder, 'limelight.yaml');
  writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^name: .*$/m, `name: ${name}`));
  const { session } = await signedIn(server, await confirmedUser(server, 'publish-bench'));
  const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
  const apiKey = String(key.json.secret);
  const env = { PYTHONPATH: SDK_PYTHON_PATH, LIMELIGHT_BASE_URL: server.url, LIMELIGHT_API_KEY: apiKey };

  const build = await limelight('build', folder, env);
  const push = await limelight('push', folder, env);
  const deploy = await limelight('deploy', folder, env);
  const services = (await rawApi(server, 'GET', '/v1/model_management/services', { token: apiKey })).json as unknown as { id: string }[];
  const client = createClient({ baseUrl: server.url, apiKey });
  let started = performance.now();
  const first = (await client.run(services[0]!.id, { endpoint: '/read', input: { image: new Blob([new Uint8Array(png)]) } })) as {
    text: string;
  };
  const firstAnswer = performance.now() - started;
  if (first.text !== 'HELLO') throw new Error(`OCR answered ${JSON.stringify(first)}`);

  // A code-only change: the base (and weights) layers are reused, only the code layer is new.
  appendFileSync(path.join(folder, 'main.py'), '\n# a code-only change\n');
  const build2 = await limelight('build', folder, env);
  const push2 = await limelight('push', folder, env);

  const factory = new InstanceFactory(
    t.engine,
    {
      deploymentId: t.deploymentId('publish'),
      image: `localhost/${name}:latest`,
      port: 8080,
      limits: limitsFor({ memoryMb: 512 }),
      gpu: 'none',
    },
    { healthPath: '/health', readyTimeoutMs: 60_000 },
  );
  const base = {
    bench: 'publish',
    build_s: seconds(build),
    push_s: seconds(push),
    deploy_to_ready_s: seconds(deploy),
    first_answer_ms: Math.round(firstAnswer),
    second_build_s: seconds(build2),
    second_push_s: seconds(push2),
  };
  for (const technique of ['paused', 'created', 'none'] as WarmStrategy[]) {
    const times: number[] = [];
    for (let i = 0; i < COLD; i += 1) {
      await factory.replenish(technique, 1);
      await new Promise((r) => setTimeout(r, 100));
      started = performance.now();
      const { instance } = await factory.acquire();
      const answer = await fetch(`${instance.baseUrl}/read`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'wait=60' },
        body: JSON.stringify({ image: dataUrl }),
      });
      const body = (await answer.json()) as { text?: string };
      if (body.text !== 'HELLO') throw new Error(`OCR answered ${JSON.stringify(body)}`);
      times.push(performance.now() - started);
      await factory.discard(instance.id);
    }
    console.log(
      JSON.stringify({
        ...base,
        pool: technique,
        cold_start_p50_ms: Math.round(percentile(times, 0.5)),
        cold_start_p99_ms: Math.round(percentile(times, 0.99)),
      }),
    );
  }
  await factory.discardSpares();
  for (const s of services) await rawApi(server, 'DELETE', `/v1/model_management/services/${s.id}`, { token: apiKey });

  // One command from a folder never built, its base cached (a first run of the bench builds the
  // base with pip first; the figure is read from the second run on): init, a wheel, push --deploy.
  const greeter = path.join(dir, 'greeter');
  await limelight(`init greeter --name ${greeterName}`, dir, env);
  const wheel = makeTinyWheel(python.python!, path.join(greeter, 'wheels'), randomBytes(4).toString('hex'));
  appendFileSync(path.join(greeter, 'limelight.yaml'), `python_packages: [./wheels/${wheel}]\n`);
  writeFileSync(path.join(greeter, 'main.py'), greeterMain(1));
  const oneCommand = await limelightSaying('push --deploy', greeter, env);
  const greeterId = /^service (\S+): /m.exec(oneCommand.output)![1]!;
  const layer = /python packages (localhost\/limelight-python:\w+)/.exec(oneCommand.output)![1]!;
  pythonImages.add(layer);
  started = performance.now();
  const greeted = (await client.run(greeterId, { endpoint: '/greet', input: { name: 'Ada' } })) as { version: number };
  const greeterFirstAnswer = performance.now() - started;
  if (greeted.version !== 1) throw new Error(`the greeter answered ${JSON.stringify(greeted)}`);
  const before = layersOf(`localhost/${greeterName}:latest`);

  // A code-only change, pushed and deployed with the same command: the packages' layer is reused.
  writeFileSync(path.join(greeter, 'main.py'), greeterMain(2));
  const changed = await limelightSaying('push --deploy', greeter, env);
  const after = layersOf(`localhost/${greeterName}:latest`);
  const again = (await client.run(greeterId, { endpoint: '/greet', input: { name: 'Ada' } })) as { version: number };
  if (again.version !== 2) throw new Error(`the greeter answered ${JSON.stringify(again)} after the change`);
  // Layers: the base, the Python packages, the limelight package, the code (limelight/cli/build.py).
  console.log(
    JSON.stringify({
      bench: 'publish',
      one_command: {
        push_deploy_s: seconds(oneCommand.ms),
        pip_ran: /pip installs/.test(oneCommand.output),
        first_answer_ms: Math.round(greeterFirstAnswer),
      },
      code_change: {
        push_deploy_s: seconds(changed.ms),
        pip_ran: /pip installs/.test(changed.output),
        python_layer_cached: changed.output.includes(`python packages ${layer} (cached)`),
        python_layer_digest_unchanged: before.length === 4 && after.length === 4 && before[1] === after[1],
        code_layer_changed: before.at(-1) !== after.at(-1),
      },
    }),
  );
  await rawApi(server, 'DELETE', `/v1/model_management/services/${greeterId}`, { token: apiKey });
} finally {
  await server.close();
  await t.stop();
  removeImagesOf(name);
  removeImagesOf(greeterName);
  if (pythonImages.size) spawnSync('podman', ['rmi', '--force', ...pythonImages], { env: podmanEnv() });
  rmSync(dir, { recursive: true, force: true });
}
