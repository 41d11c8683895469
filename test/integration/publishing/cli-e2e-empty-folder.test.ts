// Issue 49's publisher path from an empty folder, with the real Podman, the platform's real
// registry and runner, and a real platform server (docs/publishing.md, "One command", "Python
// packages", "Secrets", "Versions and rollback", "Try the built image locally"): `limelight init`,
// code that imports a package from a wheel this test builds (installed by pip offline) and reads
// a secret at setup, `limelight login`, the secret set before the first deploy, `limelight push
// --deploy` (one command), a run from @limelight/client and from limelight.Client, a change and a
// second push (the Python packages' layer reused), `limelight versions` showing two,
// `limelight rollback` bringing the first answer back, and `limelight run` on the built image
// answering locally what the platform answered. Needs rootful Podman, docker-registry, mmdebstrap
// and a Python with FastAPI; skips saying which is missing. The base image is cached
// (limelight/cli/build.py), so only the first run on a machine builds it.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../packages/client/src/index';
import { podmanEnv } from '../../../scripts/engine.mjs';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { removeImagesOf, startPublishingPlatform } from '../../setup/publishingPlatform';
import { engineSkipReason, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { findServePython, SDK_PYTHON_PATH } from '../../setup/servePython';
import { makeTinyWheel } from '../../setup/tinyWheel';
import { confirmedUser, rawApi, signedIn } from '../helpers';

const python = findServePython();
const skip =
  engineSkipReason() ??
  (spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)') ??
  (spawnSync('mmdebstrap', ['--version']).status === 0 ? null : 'mmdebstrap is not installed (apt-get install mmdebstrap)') ??
  python.skip ??
  null;
if (skip) console.warn(`limelight CLI e2e from an empty folder skipped: ${skip}`);

/** A shell command run without blocking this process (the platform answering it runs here). */
function sh(
  command: string,
  cwd: string,
  env: Record<string, string>,
  input?: string,
): Promise<{ status: number | null; output: string; stdout: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env: { ...podmanEnv(), ...env }, timeout: 900_000 });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (d) => ((output += d), (stdout += d)));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output, stdout, ms: Date.now() - started }));
    child.stdin.end(input ?? '');
  });
}

/** The service's code: the wheel's package, and a secret read once at setup (its hash answered, never itself). */
const mainPy = (version: number) => `import hashlib
import os

import tinyword
from limelight.serve import App

app = App(title="Greeter")
loaded = {}


@app.setup
def load():
    token = os.environ.get("GREETER_TOKEN")
    if not token:
        raise RuntimeError("GREETER_TOKEN is not set: limelight secrets set GREETER_TOKEN")
    loaded["token"] = hashlib.sha256(token.encode()).hexdigest()[:12]
    print("token loaded")


@app.endpoint("/greet", time_limit_s=30)
def greet(name: str = "world") -> dict:
    return {"greeting": tinyword.greet(name), "token": loaded["token"], "version": ${version}}
`;

describe.skipIf(skip)('limelight from an empty folder: wheel, secret, login, push --deploy, versions, rollback, run', () => {
  let t: TestEngine;
  let server: PlatformTestServer;
  let dataDir: string;
  let folder: string;
  let cliEnv: Record<string, string>;
  let apiKey: string;
  let serviceId: string | undefined;
  const name = `greeter-e2e-${process.pid}`;
  const marker = randomBytes(4).toString('hex');
  const token = `tok-${randomBytes(12).toString('hex')}`;
  const pythonImages = new Set<string>();

  beforeAll(async () => {
    t = await startTestEngine();
    dataDir = mkdtempSync(path.join(tmpdir(), 'limelight-cli-empty-'));
    folder = path.join(dataDir, 'greeter');
    server = await startPublishingPlatform(t, path.join(dataDir, 'platform'));
    const { session } = await signedIn(server, await confirmedUser(server, 'cli-empty'));
    const key = await rawApi(server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    apiKey = String(key.json.secret);
    // `limelight` on PATH as after `pip install ./sdk/python`; no API key in the environment:
    // `limelight login` signs the CLI in, in a config folder of this test's own.
    const bin = path.join(dataDir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'limelight'), `#!/bin/sh\nexec ${python.python} -m limelight "$@"\n`, { mode: 0o755 });
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LIMELIGHT_'))) as Record<string, string>;
    cliEnv = {
      ...clean,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      PYTHONPATH: SDK_PYTHON_PATH,
      HOME: path.join(dataDir, 'home'),
      XDG_CONFIG_HOME: path.join(dataDir, 'config'),
      LIMELIGHT_BASE_URL: server.url,
    };
    mkdirSync(cliEnv.HOME!);
  }, 180_000);

  afterAll(async () => {
    if (serviceId) await rawApi(server, 'DELETE', `/v1/model_management/services/${serviceId}`, { token: apiKey });
    await server?.close();
    removeImagesOf(name);
    if (pythonImages.size) spawnSync('podman', ['rmi', '--force', ...pythonImages], { env: podmanEnv() });
    await t?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('publishes in one command, runs from both SDKs, versions, rolls back and runs locally', { timeout: 900_000 }, async () => {
    const init = await sh(`limelight init greeter --name ${name}`, dataDir, cliEnv);
    expect(init.status, init.output).toBe(0);
    // The publisher's code: a package from a wheel of the folder, and a secret read at setup.
    const wheel = makeTinyWheel(python.python!, path.join(folder, 'wheels'), marker);
    writeFileSync(path.join(folder, 'main.py'), mainPy(1));
    writeFileSync(
      path.join(folder, 'limelight.yaml'),
      `${readFileSync(path.join(folder, 'limelight.yaml'), 'utf8')}python_packages: [./wheels/${wheel}]\n`,
    );

    const login = await sh(`limelight login --with-token`, folder, cliEnv, `${apiKey}\n`);
    expect(login.status, login.output).toBe(0);
    const whoami = await sh('limelight whoami', folder, cliEnv);
    expect(whoami.output).toContain(server.url);

    // The secret before the first deploy: it creates the service from limelight.yaml.
    const secret = await sh('limelight secrets set GREETER_TOKEN', folder, cliEnv, `${token}\n`);
    expect(secret.status, secret.output).toBe(0);
    serviceId = /created service (\S+) from limelight\.yaml, not deployed yet/.exec(secret.output)?.[1];
    expect(serviceId, secret.output).toBeDefined();

    // One command: builds (pip installs the wheel offline), pushes, deploys that service.
    const first = await sh('limelight push --deploy', folder, cliEnv);
    expect(first.status, first.output).toBe(0);
    expect(first.output).toContain(`no image localhost/${name}:latest: building…`);
    const layer =
      /python packages (localhost\/limelight-python:\w+): pip installs 1 requirement from the folder's files only, no network/.exec(
        first.output,
      );
    expect(layer, first.output).not.toBeNull();
    pythonImages.add(layer![1]!);
    expect(first.output).toContain(`updated service ${serviceId} to `);
    expect(first.output).toContain('  app: token loaded');
    expect(first.output).not.toContain(token);
    expect(first.output.trim().split('\n').at(-1)).toMatch(new RegExp(`^service ${serviceId}: `));
    const imageOf = async () =>
      String(
        ((await rawApi(server, 'GET', `/v1/model_management/services/${serviceId}`, { token: apiKey })).json.runtime as { image: string })
          .image,
      );
    const firstImage = await imageOf();
    const layersOf = (image: string) =>
      JSON.parse(
        spawnSync('podman', ['image', 'inspect', '--format', '{{json .RootFS.Layers}}', image], { env: podmanEnv(), encoding: 'utf8' })
          .stdout,
      ) as string[];
    const firstLayers = layersOf(`localhost/${name}:latest`);

    const expected = (version: number) => ({
      greeting: `Hello, Ada (tinyword ${marker})`,
      token: createHash('sha256').update(token).digest('hex').slice(0, 12),
      version,
    });
    const client = createClient({ baseUrl: server.url, apiKey });
    const fromJs = () => client.run(serviceId!, { endpoint: '/greet', input: { name: 'Ada' } });
    const fromPython = async () => {
      const done = await sh(
        `${python.python} -c 'import json, sys, limelight; print(json.dumps(limelight.Client().run(sys.argv[1], {"name": "Ada"}, endpoint="/greet")))' ${serviceId}`,
        dataDir,
        { ...cliEnv, LIMELIGHT_API_KEY: apiKey },
      );
      expect(done.status, done.output).toBe(0);
      return JSON.parse(done.stdout) as unknown;
    };
    expect(await fromJs()).toEqual(expected(1));
    expect(await fromPython()).toEqual(expected(1));

    // A change and a second push: pip does not run again, the packages' layer is the same.
    writeFileSync(path.join(folder, 'main.py'), mainPy(2));
    const second = await sh('limelight push --deploy', folder, cliEnv);
    expect(second.status, second.output).toBe(0);
    expect(second.output).toContain('sources changed since the last build: building…');
    expect(second.output).toContain(`python packages ${layer![1]} (cached)`);
    expect(second.output).not.toContain('pip installs');
    const secondLayers = layersOf(`localhost/${name}:latest`);
    expect(secondLayers.slice(0, -1)).toEqual(firstLayers.slice(0, -1));
    expect(secondLayers.at(-1)).not.toBe(firstLayers.at(-1));
    expect(await imageOf()).not.toBe(firstImage);
    const changed = await fromJs();
    expect(changed).toEqual(expected(2));
    expect(await fromPython()).toEqual(expected(2));

    const versions = await sh('limelight versions', folder, cliEnv);
    expect(versions.status, versions.output).toBe(0);
    const rows = versions.output.split('\n').filter((line) => /^[* ] [0-9a-f]{12} /.test(line));
    expect(rows, versions.output).toHaveLength(2);
    expect(rows[0]).toMatch(/^\* [0-9a-f]{12} .* deploy +succeeded$/);
    expect(rows[1]).toContain(firstImage.split('@sha256:')[1]!.slice(0, 12));

    // `limelight run` on the image built last answers here what the platform answered for it.
    const local = await sh('limelight run greet -i name=Ada -e GREETER_TOKEN', folder, { ...cliEnv, GREETER_TOKEN: token });
    expect(local.status, local.output).toBe(0);
    expect(JSON.parse(local.stdout)).toEqual(changed);

    const rollback = await sh('limelight rollback', folder, cliEnv);
    expect(rollback.status, rollback.output).toBe(0);
    expect(rollback.output).toContain(`rolled back: ${firstImage} serves`);
    expect(await fromJs()).toEqual(expected(1));
    expect(await fromPython()).toEqual(expected(1));
    console.info(
      `limelight CLI e2e from an empty folder: push --deploy ${first.ms} ms, second ${second.ms} ms, rollback ${rollback.ms} ms`,
    );
  });
});
