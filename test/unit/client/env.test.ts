import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { projectRoot } from '../../../scripts/source-aliases.mjs';

// The environment's names (issue 51, item 3): LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL in
// createClient, createProxy and the limelight-types CLI, as in Python; the older LIME_API_KEY and
// LIME_BASE_URL still work with one warning per process, and the new name wins when both are set.
// The requests go to a real HTTP listener that records what arrives (not a platform server: the
// names are the subject, not the job API).

const run = promisify(execFile);
const ENV_NAMES = ['LIMELIGHT_API_KEY', 'LIMELIGHT_BASE_URL', 'LIME_API_KEY', 'LIME_BASE_URL'] as const;

let listener: Server;
let url: string;
const received: Array<{ path: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  listener = createServer((req, res) => {
    received.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0","paths":{}}');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

let saved: Record<string, string | undefined>;
let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  saved = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
  for (const name of ENV_NAMES) delete process.env[name];
  received.length = 0;
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  // A fresh module each test: the warning is once per process, i.e. per loaded module.
  vi.resetModules();
});
afterEach(() => {
  for (const name of ENV_NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  warn.mockRestore();
});

const client = () => import('../../../packages/client/src/index.ts');
const warnings = () => warn.mock.calls.map((call) => String(call[0]));

describe('createClient() from the environment', () => {
  it('reads LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL, without a warning', async () => {
    process.env.LIMELIGHT_API_KEY = 'lime_new';
    process.env.LIMELIGHT_BASE_URL = url;
    const { createClient } = await client();
    await createClient().openapi('svc');
    expect(received).toEqual([expect.objectContaining({ path: '/v1/services/svc/openapi.json' })]);
    expect(received[0]!.headers.authorization).toBe('Bearer lime_new');
    expect(warnings()).toEqual([]);
  });

  it('still reads the older LIME_API_KEY and LIME_BASE_URL, warning once for each, naming the new name', async () => {
    process.env.LIME_API_KEY = 'lime_old';
    process.env.LIME_BASE_URL = url;
    const { createClient } = await client();
    await createClient().openapi('svc');
    await createClient().openapi('svc');
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer lime_old', 'Bearer lime_old']);
    expect(warnings()).toEqual([
      '@limelight/client: LIME_BASE_URL is deprecated, set LIMELIGHT_BASE_URL instead (the older name still works for now)',
      '@limelight/client: LIME_API_KEY is deprecated, set LIMELIGHT_API_KEY instead (the older name still works for now)',
    ]);
  });

  it('the new name wins when both are set, and the old one is not warned about', async () => {
    process.env.LIMELIGHT_API_KEY = 'lime_new';
    process.env.LIME_API_KEY = 'lime_old';
    process.env.LIMELIGHT_BASE_URL = url;
    process.env.LIME_BASE_URL = 'http://127.0.0.1:9';
    const { createClient } = await client();
    await createClient().openapi('svc');
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer lime_new']);
    expect(warnings()).toEqual([]);
  });

  it('an empty new name counts as unset: the old one is used', async () => {
    process.env.LIMELIGHT_API_KEY = '';
    process.env.LIME_API_KEY = 'lime_old';
    const { createClient } = await client();
    await createClient({ baseUrl: url }).openapi('svc');
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer lime_old']);
    expect(warnings()).toHaveLength(1);
  });

  it('a key given in code is used and the environment is not read (no warning)', async () => {
    process.env.LIME_API_KEY = 'lime_old';
    const { createClient } = await client();
    await createClient({ baseUrl: url, token: 'user-token' }).openapi('svc');
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer user-token']);
    expect(warnings()).toEqual([]);
  });
});

describe('createProxy() from the environment', () => {
  it('forwards with the older LIME_API_KEY to LIME_BASE_URL, warning once; the new names win', async () => {
    process.env.LIME_API_KEY = 'lime_old';
    process.env.LIME_BASE_URL = url;
    const { createProxy } = await import('../../../packages/client/src/proxy.ts');
    const old = await createProxy().handle(new Request('http://app.example/v1/jobs/j1'));
    expect(old.status).toBe(200);
    expect(received.map((r) => [r.path, r.headers.authorization])).toEqual([['/v1/jobs/j1', 'Bearer lime_old']]);
    expect(warnings()).toHaveLength(2);

    process.env.LIMELIGHT_API_KEY = 'lime_new';
    process.env.LIMELIGHT_BASE_URL = url;
    process.env.LIME_BASE_URL = 'http://127.0.0.1:9';
    await createProxy().handle(new Request('http://app.example/v1/jobs/j2'));
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer lime_old', 'Bearer lime_new']);
    expect(warnings()).toHaveLength(2);
  });
});

describe('the limelight-types CLI', () => {
  const cli = path.join(projectRoot, 'packages/client/src/cli.ts');
  const types = (env: Record<string, string>, args: string[] = ['svc']) =>
    run(process.execPath, ['--import', 'tsx', cli, ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    });

  it('its help names LIMELIGHT_API_KEY and LIMELIGHT_BASE_URL', async () => {
    const { stdout } = await types({}, ['--help']);
    expect(stdout).toContain('default $LIMELIGHT_API_KEY');
    expect(stdout).toContain('default $LIMELIGHT_BASE_URL');
    expect(stdout).not.toMatch(/\$LIME_API_KEY/);
  });

  it('reads the older names with one warning each, and the new names over them', async () => {
    const old = await types({ LIME_API_KEY: 'lime_old', LIME_BASE_URL: url });
    expect(old.stdout).toContain("declare module '@limelight/client'");
    expect(old.stderr.match(/is deprecated/g)).toHaveLength(2);
    expect(old.stderr).toContain('LIME_API_KEY is deprecated, set LIMELIGHT_API_KEY instead');
    const both = await types({ LIME_API_KEY: 'lime_old', LIMELIGHT_API_KEY: 'lime_new', LIMELIGHT_BASE_URL: url });
    expect(both.stderr).not.toContain('deprecated');
    expect(received.map((r) => r.headers.authorization)).toEqual(['Bearer lime_old', 'Bearer lime_new']);
  });
});
