import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { podmanEnv } from '../../../scripts/engine.mjs';
import { REGISTRY_BINARY } from '../../../reference-app/server/registry';
import type { PlatformTestServer } from '../../../reference-app/server/testing';
import { engineSkipReason, startTestEngine, type TestEngine } from '../../setup/containerEngine';
import { removeImagesOf, startPublishingPlatform } from '../../setup/publishingPlatform';
import { findServePython, SDK_PYTHON_PATH } from '../../setup/servePython';
import { confirmedUser, rawApi, signedIn } from '../helpers';

// The one setup of the tests that drive the `limelight` CLI end to end (docs/publishing.md, "Write
// a service in Python"): the real Podman, a platform server with its registry and runner on, a
// confirmed account with an API key, and `limelight` on PATH as after `pip install ./sdk/python`;
// afterwards the account's services deleted (their containers stopped), the server closed, the
// images built and pulled removed, the engine stopped and the test's folder gone.

const python = findServePython();

/** Why the CLI e2e tests cannot run here, with what to install, or null. */
export const cliSkipReason = (): string | null =>
  engineSkipReason() ??
  (spawnSync(REGISTRY_BINARY, ['--version']).status === 0 ? null : 'docker-registry is not installed (apt-get install docker-registry)') ??
  (spawnSync('mmdebstrap', ['--version']).status === 0 ? null : 'mmdebstrap is not installed (apt-get install mmdebstrap)') ??
  python.skip ??
  null;

export interface CliPublisher {
  /** Set before the tests. */
  t: TestEngine;
  server: PlatformTestServer;
  /** The test's folder, removed afterwards: the platform's data in platform/, `limelight` in bin/. */
  dataDir: string;
  /** The account's API key. */
  apiKey: string;
  /** The interpreter `limelight` runs on (FastAPI importable), for limelight.Client too. */
  python: string;
  /**
   * What a shell needs to find `limelight` and the SDK, pointed at this server (PATH, PYTHONPATH,
   * LIMELIGHT_BASE_URL); no API key: a test adds LIMELIGHT_API_KEY or signs in with `limelight login`.
   */
  env: Record<string, string>;
  /** More local images the test made (a Python packages' layer), removed afterwards; usable at once. */
  readonly images: Set<string>;
}

/**
 * Starts all of it before the tests of the describe it is called in, and removes it after them.
 * `label` names the account and the folder (limelight-<label>-…); `name` is the service's name
 * in limelight.yaml, whose images (built, and pulled by the runner) are removed.
 */
export function cliPublisher(label: string, name: string): CliPublisher {
  const cli = { images: new Set<string>() } as CliPublisher;
  beforeAll(async () => {
    cli.python = python.python!;
    cli.t = await startTestEngine();
    cli.dataDir = mkdtempSync(path.join(tmpdir(), `limelight-${label}-`));
    cli.server = await startPublishingPlatform(cli.t, path.join(cli.dataDir, 'platform'));
    const { session } = await signedIn(cli.server, await confirmedUser(cli.server, label));
    const key = await rawApi(cli.server, 'POST', '/v1/profile/create_api_key', { token: session.access_token, body: {} });
    cli.apiKey = String(key.json.secret);
    const bin = path.join(cli.dataDir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'limelight'), `#!/bin/sh\nexec ${cli.python} -m limelight "$@"\n`, { mode: 0o755 });
    cli.env = { PATH: `${bin}:${process.env.PATH ?? ''}`, PYTHONPATH: SDK_PYTHON_PATH, LIMELIGHT_BASE_URL: cli.server.url };
  }, 180_000);

  afterAll(async () => {
    if (cli.server && cli.apiKey) {
      const own = await rawApi(cli.server, 'GET', '/v1/model_management/services', { token: cli.apiKey });
      for (const { id } of Array.isArray(own.json) ? own.json : [])
        await rawApi(cli.server, 'DELETE', `/v1/model_management/services/${String(id)}`, { token: cli.apiKey });
    }
    await cli.server?.close();
    removeImagesOf(name);
    if (cli.images.size) spawnSync('podman', ['rmi', '--force', ...cli.images], { env: podmanEnv() });
    await cli.t?.stop();
    if (cli.dataDir) rmSync(cli.dataDir, { recursive: true, force: true });
  }, 120_000);
  return cli;
}

/** What the CLI signs in and aims with: only a test's own `env` may set them (see sh). */
const CLI_CREDENTIALS = ['LIMELIGHT_API_KEY', 'LIMELIGHT_BASE_URL', 'LIME_API_KEY', 'LIME_BASE_URL'];

/**
 * A shell command run without blocking this process (the platform answering it runs here), with
 * podmanEnv() under `env` and `input` as its standard input (none: closed at once). The CLI's
 * credentials of the outer environment are left out, so a test that runs `limelight login` with
 * no key really has none (the run's LIMELIGHT_TEST_RUN mark still passes).
 */
export function sh(
  command: string,
  cwd: string,
  env: Record<string, string>,
  input?: string,
): Promise<{ status: number | null; output: string; stdout: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env: { ...withoutCliCredentials(podmanEnv()), ...env }, timeout: 900_000 });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (d) => ((output += d), (stdout += d)));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output, stdout, ms: Date.now() - started }));
    child.stdin.end(input ?? '');
  });
}

function withoutCliCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !CLI_CREDENTIALS.includes(name)));
}
