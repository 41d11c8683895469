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
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../packages/client/src/index';
import { podmanEnv } from '../../../scripts/engine.mjs';
import { makeTinyWheel } from '../../setup/tinyWheel';
import { rawApi } from '../helpers';
import { cliPublisher, cliSkipReason, sh } from './limelightCli';

const skip = cliSkipReason();
if (skip) console.warn(`limelight CLI e2e from an empty folder skipped: ${skip}`);

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
  const name = `greeter-e2e-${process.pid}`;
  const cli = cliPublisher('cli-empty', name);
  let folder: string;
  let cliEnv: Record<string, string>;
  const marker = randomBytes(4).toString('hex');
  const token = `tok-${randomBytes(12).toString('hex')}`;

  beforeAll(() => {
    folder = path.join(cli.dataDir, 'greeter');
    // No API key in the environment: `limelight login` signs the CLI in, in a config folder of
    // this test's own.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LIMELIGHT_'))) as Record<string, string>;
    cliEnv = { ...clean, ...cli.env, HOME: path.join(cli.dataDir, 'home'), XDG_CONFIG_HOME: path.join(cli.dataDir, 'config') };
    mkdirSync(cliEnv.HOME!);
  });

  it('publishes in one command, runs from both SDKs, versions, rolls back and runs locally', { timeout: 900_000 }, async () => {
    const init = await sh(`limelight init greeter --name ${name}`, cli.dataDir, cliEnv);
    expect(init.status, init.output).toBe(0);
    // The publisher's code: a package from a wheel of the folder, and a secret read at setup.
    const wheel = makeTinyWheel(cli.python, path.join(folder, 'wheels'), marker);
    writeFileSync(path.join(folder, 'main.py'), mainPy(1));
    writeFileSync(
      path.join(folder, 'limelight.yaml'),
      `${readFileSync(path.join(folder, 'limelight.yaml'), 'utf8')}python_packages: [./wheels/${wheel}]\n`,
    );

    const login = await sh(`limelight login --with-token`, folder, cliEnv, `${cli.apiKey}\n`);
    expect(login.status, login.output).toBe(0);
    const whoami = await sh('limelight whoami', folder, cliEnv);
    expect(whoami.output).toContain(cli.server.url);

    // The secret before the first deploy: it creates the service from limelight.yaml.
    const secret = await sh('limelight secrets set GREETER_TOKEN', folder, cliEnv, `${token}\n`);
    expect(secret.status, secret.output).toBe(0);
    const serviceId = /created service (\S+) from limelight\.yaml, not deployed yet/.exec(secret.output)?.[1];
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
    cli.images.add(layer![1]!);
    expect(first.output).toContain(`updated service ${serviceId} to `);
    // The setup read the secret: its line is on the deployment's log. `push --deploy` prints it
    // when it is stored before the rollout ends, but the runner ships logs apart from its health
    // checks, so on a loaded machine it can land just after (rollout-progress.test.ts checks the
    // streaming itself).
    await expect
      .poll(
        async () =>
          JSON.stringify(
            (await rawApi(cli.server, 'GET', `/v1/model_management/services/${serviceId}/rollout?since=0`, { token: cli.apiKey })).json,
          ),
        { timeout: 20_000 },
      )
      .toContain('token loaded');
    expect(first.output).not.toContain(token);
    expect(first.output.trim().split('\n').at(-1)).toMatch(new RegExp(`^service ${serviceId}: `));
    const imageOf = async () =>
      String(
        (
          (await rawApi(cli.server, 'GET', `/v1/model_management/services/${serviceId}`, { token: cli.apiKey })).json.runtime as {
            image: string;
          }
        ).image,
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
    const client = createClient({ baseUrl: cli.server.url, apiKey: cli.apiKey });
    const fromJs = () => client.run(serviceId!, { endpoint: '/greet', input: { name: 'Ada' } });
    const fromPython = async () => {
      const done = await sh(
        `${cli.python} -c 'import json, sys, limelight; print(json.dumps(limelight.Client().run(sys.argv[1], {"name": "Ada"}, endpoint="/greet")))' ${serviceId}`,
        cli.dataDir,
        { ...cliEnv, LIMELIGHT_API_KEY: cli.apiKey },
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
