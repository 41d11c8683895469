import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSamples, exampleInput, serviceOpenApiUrl, toPython } from '../../../src/components/ServiceRunner/codeSamples';
import { ENDPOINTS } from '../../../reference-app/server/seed/endpoints';
import { validateJobInput } from '../../../src/run/validate';
import { hasPython } from '../../fixtures/python';

const tricky = { prompt: 'it\'s a "lime" $HOME `x`', n: 2, ok: true, none: null, list: [1, { a: false }] };
const options = { apiUrl: 'http://localhost:3000/', serviceId: 'svc-1', endpoint: '/generate', input: tricky };

describe('API tab code samples (docs/jobs.md)', () => {
  it('example inputs pass validation for every seeded endpoint', () => {
    for (const [category, endpoints] of Object.entries(ENDPOINTS)) {
      for (const endpoint of endpoints) {
        const result = validateJobInput(endpoint, exampleInput(endpoint));
        expect(result.valid, `${category} ${endpoint.path}: ${JSON.stringify(result)}`).toBe(true);
      }
    }
  });

  it('cURL: the body survives shell quoting exactly', () => {
    const { curl } = codeSamples(options);
    expect(curl).toContain("'http://localhost:3000/v1/jobs'");
    expect(curl).toContain('"Authorization: Bearer $LIMELIGHT_API_KEY"');
    // Let bash parse the command and echo the -d argument back.
    const script = curl.replace(/^#.*\n/, '').replace(/^curl /, 'printf "%s\\n" ');
    const words = execFileSync('bash', ['-c', script], { encoding: 'utf8' }).trim().split('\n');
    expect(JSON.parse(words[words.length - 1]!)).toEqual({ service_id: 'svc-1', endpoint: '/generate', input: tricky });
  });

  it('a given key is written in, the environment variable is not used', () => {
    const s = codeSamples({ ...options, apiKey: 'lime_secret' });
    expect(s.curl).toContain("'Authorization: Bearer lime_secret'");
    expect(s.python).toContain('api_key="lime_secret"');
    expect(s.python).not.toContain('import os');
    expect(s.javascript).toContain('apiKey: "lime_secret"');
    expect(s.javascript).not.toContain('process.env');
    expect(s.curl).not.toContain('LIMELIGHT_API_KEY');
  });

  it('the samples use the SDKs and otherwise read LIMELIGHT_API_KEY', () => {
    const s = codeSamples(options);
    expect(s.python).toMatch(/^import limelight$/m);
    expect(s.python).toContain('api_key=os.environ["LIMELIGHT_API_KEY"]');
    expect(s.javascript).toContain("import { createClient } from '@limelight/client';");
    expect(s.javascript).toContain('apiKey: process.env.LIMELIGHT_API_KEY');
    expect(serviceOpenApiUrl('http://h/', 'owner/my svc')).toBe('http://h/v1/services/owner/my%20svc/openapi.json');
  });

  it('JavaScript parses as a module', () => {
    const { javascript } = codeSamples(options);
    const dir = mkdtempSync(path.join(tmpdir(), 'lime-sample-'));
    const file = path.join(dir, 'sample.mjs');
    writeFileSync(file, javascript);
    expect(() => execFileSync(process.execPath, ['--check', file])).not.toThrow();
  });

  it.runIf(hasPython())('Python parses and the body literal equals the JSON', () => {
    const { python } = codeSamples(options);
    expect(() => execFileSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read())'], { input: python })).not.toThrow();
    const literal = toPython(tricky);
    const out = execFileSync('python3', ['-c', 'import ast,json,sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))'], {
      input: literal,
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(tricky);
  });
});
