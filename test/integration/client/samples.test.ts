import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/source-aliases.mjs';
import { globalServer } from '../helpers';
import { keyedUser } from './fixtures';
import { hasPython } from '../../fixtures/python';
import { apiTabSamples, documentedSamples, failedSamples, siteSamples, type ApiTabSamples, type Sample } from './samples';

// Every shell and Python sample the site and the README show runs as pasted against the real
// server (issue 39, item 2; samples.ts says which). The JavaScript ones run in consumer.test.ts,
// from @limelight/client installed out of its tarball.

const server = globalServer();
let options = { baseUrl: server.url, apiKey: '', cwd: projectRoot, env: {} as Record<string, string> };
let tab: ApiTabSamples = { all: [], distinct: [], shapes: [], withoutFile: [] };

beforeAll(async () => {
  const { apiKey } = await keyedUser(server, 'samples');
  // A job of the reader's own, for the docs' "stream it" line that names $JOB_ID.
  const created = await fetch(`${server.url}/v1/jobs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', Prefer: 'wait=30' },
    body: JSON.stringify({ service_id: 'lime-diffusion-xl', endpoint: '/generate', input: { prompt: 'a lime', width: 64, height: 64 } }),
  });
  const { job_id } = (await created.json()) as { job_id: string };
  const env = { LIMELIGHT_API_KEY: apiKey, LIMELIGHT_BASE_URL: server.url, JOB_ID: job_id };
  options = { ...options, apiKey, env };
  tab = await apiTabSamples(server.url, apiKey);
});

const only = (samples: readonly Sample[], language: Sample['language']) => samples.filter((s) => s.language === language);

describe('code samples as pasted', () => {
  it('the quick starts of README.md and docs/ are found: cURL and Python, none using uuidgen', () => {
    const documented = documentedSamples();
    expect(documented.filter((s) => s.origin.startsWith('README.md')).map((s) => s.language)).toEqual(['sh', 'python']);
    expect(documented.map((s) => s.language)).toEqual(expect.arrayContaining(['sh', 'python', 'javascript']));
    for (const sample of documented) expect(sample.code, sample.origin).not.toContain('uuidgen');
  });

  it('every Python sample says how to get the SDK from this repository', () => {
    const python = only([...documentedSamples(), ...siteSamples(), ...tab.all], 'python');
    expect(python.length).toBeGreaterThan(3);
    for (const sample of python) expect(sample.code, sample.origin).toMatch(/PYTHONPATH=sdk\/python|pip install \.\/sdk\/python/);
  });

  it('the shell samples of README.md and docs/ run', { timeout: 60_000 }, async () => {
    expect(await failedSamples(only(documentedSamples(), 'sh'), options)).toEqual([]);
  });

  it.runIf(hasPython())('the Python samples of README.md, docs/ and the home page run', { timeout: 60_000 }, async () => {
    expect(await failedSamples(only([...documentedSamples(), ...siteSamples()], 'python'), options)).toEqual([]);
  });

  it("the API tab's cURL runs for one service of each endpoint and input", { timeout: 240_000 }, async () => {
    expect(only(tab.distinct, 'sh').length).toBeGreaterThan(10);
    expect(await failedSamples(only(tab.distinct, 'sh'), options)).toEqual([]);
  });

  it.runIf(hasPython())("the API tab's Python runs for one service of each kind of input", { timeout: 240_000 }, async () => {
    expect(only(tab.shapes, 'python').length).toBeGreaterThan(3);
    expect(await failedSamples(only(tab.shapes, 'python'), options)).toEqual([]);
  });

  // A service with a file input and no recorded example would name a placeholder file the server
  // refuses; every one has an example (npm run examples), so every sample runs on a real file.
  it('every service with a file input has an example file for its samples', () => {
    expect(tab.withoutFile.map((s) => s.origin)).toEqual([]);
  });
});
